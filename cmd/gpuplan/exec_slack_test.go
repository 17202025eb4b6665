package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/bot/slackfake"
	"github.com/gpuplan/gpuplan/store"
)

// execWithSlack runs gpuplan exec in this process on the embedded store,
// with a servers file whose team channel is C0001, and the environment
// extra on top. It answers the exit code and everything printed; the
// store is dir/r.db.
func execWithSlack(t *testing.T, dir string, extra map[string]string, args ...string) (int, string, string) {
	t.Helper()
	servers := filepath.Join(dir, "servers.yaml")
	if err := os.WriteFile(servers, []byte("team_channel: C0001\nservers:\n  - name: box\n    gpu: a100\n    gpus: 4\nusers:\n  alice: U0001\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"GPUPLAN_DB": filepath.Join(dir, "r.db"), "HOME": dir, "GPUPLAN_EXEC_LEASE": "2s",
		"GPUPLAN_SERVERS": servers, "USER": "alice"}
	for k, v := range extra {
		env[k] = v
	}
	var stdout, stderr lockedBuffer
	code := run(context.Background(), append([]string{"exec", "--on", "box"}, args...), func(k string) string { return env[k] }, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// liveMention is what Slack reads as a mention or a broadcast in mrkdwn.
var liveMention = regexp.MustCompile(`<[@#!][^>]*>`)

// strings of a posted message: its fallback text and every string in its
// blocks.
func postedText(t *testing.T, text string, blocks any) string {
	t.Helper()
	if raw, ok := blocks.(json.RawMessage); ok {
		if err := json.Unmarshal(raw, &blocks); err != nil {
			t.Fatal(err)
		}
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // as Slack reads it: < stays <
	if err := enc.Encode(blocks); err != nil {
		t.Fatal(err)
	}
	return text + "\n" + b.String()
}

// With the bot token and a team channel, exec announces its booking in
// the team channel as a reservation is announced (the real slack-go
// client against the fake Slack), marked with the command it runs; at the
// end the announcement says how long the job ran and how it exited, and
// so does a reply in its thread. The command's mentions cannot ping, and
// the token is never printed.
func TestExecAnnouncesInSlack(t *testing.T) {
	fake := slackfake.New(t, slackfake.WithFailOnViolation())
	dir := t.TempDir()
	code, stdout, stderr := execWithSlack(t, dir, map[string]string{"SLACK_BOT_TOKEN": slackfake.BotToken, "SLACK_API_URL": fake.URL()},
		"--gpus", "2", "--for", "1h", "--", "sh", "-c", "echo $CUDA_VISIBLE_DEVICES; sleep 1; exit 3", "<@U0ADMIN> <!channel>")
	if code != 3 {
		t.Fatalf("exit %d, want the command's 3\n%s", code, stderr)
	}
	msgs := fake.Messages("C0001")
	if len(msgs) != 2 {
		t.Fatalf("%d messages in the team channel, want the announcement and a reply in its thread\n%s", len(msgs), stderr)
	}
	posts := fake.Calls("chat.postMessage")
	first := postedText(t, posts[0].Param("text"), json.RawMessage(posts[0].Param("blocks")))
	for _, want := range []string{"GPUs booked for a job: box", "<@U0001>", "sh -c"} {
		if !strings.Contains(first, want) {
			t.Errorf("the announcement lacks %q:\n%s", want, first)
		}
	}
	top, reply := msgs[0], msgs[1]
	if top.Edits != 1 || reply.ThreadTS != top.TS {
		t.Errorf("the announcement was edited %d times; the end was posted under %q, not in its thread (%s)", top.Edits, reply.ThreadTS, top.TS)
	}
	for name, got := range map[string]string{"the announcement": first, "the end": postedText(t, top.Text, top.Blocks), "the thread reply": postedText(t, reply.Text, reply.Blocks)} {
		for _, m := range liveMention.FindAllString(got, -1) {
			if m != "<@U0001>" {
				t.Errorf("%s carries a live %q", name, m)
			}
		}
		if name != "the announcement" {
			for _, want := range []string{"Job ended: box", "exit status 3", "ended after 1s"} {
				if !strings.Contains(got, want) {
					t.Errorf("%s lacks %q:\n%s", name, want, got)
				}
			}
		}
	}
	// Where it was announced is recorded with the booking, so the bot can
	// update the message too (its sweep says when a lapsed lease expired).
	st, err := store.OpenEmbedded(filepath.Join(dir, "r.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	hist, err := st.History(context.Background(), "box", time.Now().Add(-time.Hour), time.Now().Add(time.Hour))
	if err != nil || len(hist) != 1 || hist[0].Channel != "C0001" || hist[0].MessageTS != top.TS || hist[0].ReleasedBy != "U0001" {
		t.Errorf("the booking as stored: %+v (%v); want it released, announced at C0001 %s", hist, err, top.TS)
	}
	if strings.Contains(stdout+stderr, slackfake.BotToken) {
		t.Errorf("the token was printed:\n%s%s", stdout, stderr)
	}
	if strings.Contains(stderr, "warning") {
		t.Errorf("a warning with Slack answering:\n%s", stderr)
	}
}

// Slack failing never fails the job: a refused post, a Slack that cannot
// be reached, a token of the wrong kind are each one line on stderr,
// without the token, and the command runs and its status passes through.
func TestExecGoesOnWithoutSlack(t *testing.T) {
	fake := slackfake.New(t)
	fake.Inject("chat.postMessage", slackfake.Fault{SlackError: "not_in_channel", Times: 10})
	closed := slackfake.New(t)
	closedURL := closed.URL()
	closed.Close()
	for _, c := range []struct {
		name string
		env  map[string]string
		want string
	}{
		{"Slack refuses", map[string]string{"SLACK_BOT_TOKEN": slackfake.BotToken, "SLACK_API_URL": fake.URL()}, "not_in_channel"},
		{"Slack unreachable", map[string]string{"SLACK_BOT_TOKEN": slackfake.BotToken, "SLACK_API_URL": closedURL}, "not announced in Slack"},
		{"the app token in SLACK_BOT_TOKEN", map[string]string{"SLACK_BOT_TOKEN": slackfake.AppToken, "SLACK_API_URL": fake.URL()}, "SLACK_BOT_TOKEN holds the app-level token"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			code, stdout, stderr := execWithSlack(t, dir, c.env, "--gpus", "1", "--", "sh", "-c", "echo ran; exit 4")
			if code != 4 || strings.TrimSpace(stdout) != "ran" {
				t.Fatalf("exit %d, stdout %q; want the command run and its 4\n%s", code, stdout, stderr)
			}
			if !strings.Contains(stderr, c.want) || !strings.Contains(stderr, "Job ended: box") {
				t.Errorf("stderr lacks %q or the printed end:\n%s", c.want, stderr)
			}
			if strings.Contains(stdout+stderr, c.env["SLACK_BOT_TOKEN"]) {
				t.Errorf("the token was printed:\n%s", stderr)
			}
		})
	}
	// Without a token nothing is posted (the announcements are printed, as
	// TestExecEmbedded checks); with one but no team channel, it says so.
	before := len(fake.Calls(""))
	dir := t.TempDir()
	servers := filepath.Join(dir, "no-team-channel.yaml")
	os.WriteFile(servers, []byte("servers:\n  - name: box\n    gpu: a100\n    gpus: 4\n"), 0o644)
	code, _, stderr := execWithSlack(t, dir, map[string]string{"GPUPLAN_SERVERS": servers, "SLACK_BOT_TOKEN": slackfake.BotToken, "SLACK_API_URL": fake.URL()},
		"--gpus", "1", "--", "true")
	if code != 0 || !strings.Contains(stderr, "no team_channel") || len(fake.Calls("")) != before {
		t.Errorf("no team channel: exit %d, %d calls\n%s", code, len(fake.Calls(""))-before, stderr)
	}
}
