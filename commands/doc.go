// Package commands is gpuplan's Slack-agnostic command layer: text in,
// Reply out. It owns the command table (help and the README's command list
// are generated from it), one file per command family, the Reply that the
// terminal, JSON and Block Kit renderers all draw, and the kinds of
// failure with their user words (Explain). The request language is
// commands/lang, the servers file inventory, the digest's report digest;
// commands reads them and the store and decides what to answer.
package commands
