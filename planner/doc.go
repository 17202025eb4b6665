// Package planner estimates GPU training and inference jobs: whether they
// fit in memory, how long they take, what they cost, which hardware to use
// instead, and how to launch them. It is pure computation over an embedded
// catalogue of GPUs and models (go:embed CSVs with sources), uses only the
// standard library, and does no I/O, so every front end (terminal, Slack,
// JSON) gets the same numbers. docs/planner.md explains the formulas and
// the calibration against published measurements.
package planner
