// Package bot is gpuplan's Slack adapter and the only package that
// imports slack-go. It runs a Socket Mode client under a supervisor, acks
// every envelope before any Web API call, de-duplicates redeliveries,
// hands work to a bounded pool with per-handler panic recovery, renders
// commands.Reply as Block Kit within Slack's limits, and sends every
// answer through one deliver path (deliver.go), with failures in
// commands.Explain's words. Event flow: receive → ack → dedupe →
// self-filter → dispatch (commands) → render → answer (ack payload,
// response_url or Web API).
package bot
