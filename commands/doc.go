// Package commands is gpuplan's Slack-agnostic command layer: text in,
// Reply out. It owns the command table (help is generated from it), the
// request language that turns "bert-base 10 epochs on h100x2" into a
// planner.Request, and the renderers for terminals and JSON. The Slack
// adapter renders the same Reply as Block Kit.
package commands
