package main

import (
	"errors"
	"fmt"
	"testing"

	"github.com/slack-go/slack"
)

// Slack refusals are told apart by the code Slack answered with, wrapped
// or not, never by an error's words.
func TestSlackCodeAndPermanent(t *testing.T) {
	gone := fmt.Errorf("post digest: %w", slack.SlackErrorResponse{Err: "channel_not_found"})
	if slackCode(gone) != "channel_not_found" || !permanent(gone) {
		t.Errorf("channel_not_found: code %q, permanent %v", slackCode(gone), permanent(gone))
	}
	busy := fmt.Errorf("post digest: %w", slack.SlackErrorResponse{Err: "ratelimited"})
	if permanent(busy) {
		t.Error("ratelimited is not permanent")
	}
	// the words alone are not a code
	if words := errors.New("invalid_auth channel_not_found"); slackCode(words) != "" || permanent(words) {
		t.Errorf("plain text read as a Slack code: %q", slackCode(words))
	}
}
