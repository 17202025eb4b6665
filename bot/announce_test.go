package bot

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/bot/slackfake"
	"github.com/gpuplan/gpuplan/commands"
	"github.com/gpuplan/gpuplan/inventory"
	"github.com/gpuplan/gpuplan/planner"
	"github.com/gpuplan/gpuplan/store"
)

// execReplies books GPUs for command as exec does and returns the
// booking's two announcements, addressed to channel.
func execReplies(t *testing.T, command, channel string) (start, end *commands.Reply) {
	t.Helper()
	st, err := store.OpenEmbedded(filepath.Join(t.TempDir(), "r.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	cat := planner.DefaultCatalog()
	set := commands.New(commands.Deps{Catalog: cat, Inventory: inventory.Default(cat), Reservations: st})
	ctx := context.Background()
	rv, err := st.Reserve(ctx, store.ReserveRequest{RequestID: "x1", Server: "server-a", ServerGPUs: 4, GPUs: []int{0, 1},
		Owner: "U0001", Duration: 5 * time.Minute, Note: store.ExecNote(command)})
	if err != nil {
		t.Fatal(err)
	}
	now := rv.Start
	start = set.ExecStarted(commands.Request{User: "U0001"}, rv, command, now.Add(time.Hour), now)
	end = set.ExecEnded(commands.Request{User: "U0001"}, rv, command, 45*time.Second, "exit status 3", true, now.Add(45*time.Second))
	start.Channel, end.Channel = channel, channel
	return start, end
}

// An exec job's booking is announced in the channel as a reservation is,
// through the real slack-go client; its end replaces the announcement
// and is said in its thread. Whatever the command carries, the only live
// mention is its owner's.
func TestAnnouncerAnnouncesAndFollowsUp(t *testing.T) {
	fake := slackfake.New(t, slackfake.WithFailOnViolation())
	a, err := NewAnnouncer(slackfake.BotToken, fake.URL())
	if err != nil {
		t.Fatal(err)
	}
	start, end := execReplies(t, "python train.py "+evilNote, "C0001")
	ctx := context.Background()
	at, err := a.Announce(ctx, start)
	if err != nil {
		t.Fatal(err)
	}
	if at.Channel != "C0001" || at.TS == "" {
		t.Fatalf("announced at %+v", at)
	}
	if err := a.Follow(ctx, at, end); err != nil {
		t.Fatal(err)
	}
	msgs := fake.Messages("C0001")
	if len(msgs) != 2 {
		t.Fatalf("%d messages in the channel, want the announcement and one in its thread: %+v", len(msgs), msgs)
	}
	top, inThread := msgs[0], msgs[1]
	if top.TS != at.TS || top.Edits != 1 || inThread.ThreadTS != at.TS {
		t.Errorf("announcement ts %s (%d edits), thread reply under %q", top.TS, top.Edits, inThread.ThreadTS)
	}
	for name, m := range map[string]slackfake.Message{"the updated announcement": top, "the thread reply": inThread} {
		raw, err := json.Marshal(m.Blocks)
		if err != nil {
			t.Fatal(err)
		}
		var out strings.Builder
		collectStrings(t, raw, &out)
		out.WriteString(m.Text)
		for _, want := range []string{"after 45s", "exit status 3", "python train.py"} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("%s lacks %q:\n%s", name, want, out.String())
			}
		}
		checkNoLiveSyntax(t, name, out.String(), map[string]bool{"<@U0001>": true})
	}
	posted := fake.Calls("chat.postMessage")[0]
	var first strings.Builder
	collectStrings(t, []byte(posted.Param("blocks")), &first)
	if !strings.Contains(first.String(), "GPUs booked for a job") || !strings.Contains(first.String(), "<@U0001>") {
		t.Errorf("the announcement as posted:\n%s", first.String())
	}
	checkNoLiveSyntax(t, "the announcement", first.String()+posted.Param("text"), map[string]bool{"<@U0001>": true})
}

// A refusal is said in Slack's words, never with the token; a token of
// the wrong kind is refused before any call, without its value.
func TestAnnouncerFailures(t *testing.T) {
	fake := slackfake.New(t)
	a, err := NewAnnouncer(slackfake.BotToken, fake.URL())
	if err != nil {
		t.Fatal(err)
	}
	start, _ := execReplies(t, "python train.py", "C0NOSUCH")
	_, err = a.Announce(context.Background(), start)
	if err == nil || !strings.Contains(err.Error(), "channel_not_found") || strings.Contains(err.Error(), slackfake.BotToken) {
		t.Errorf("posting to a channel Slack does not know: %v", err)
	}
	for _, tok := range []string{slackfake.AppToken, "xoxp-1-user-token", ""} {
		_, err := NewAnnouncer(Secret(tok), fake.URL())
		var te *TokenError
		if !errors.As(err, &te) || tok != "" && strings.Contains(err.Error(), tok) {
			t.Errorf("NewAnnouncer(%.6s…) = %v, want a TokenError without the value", tok, err)
		}
	}
	if n := len(fake.Calls("")); n != 1 {
		t.Errorf("%d Web API calls, want the one refused post", n)
	}
}
