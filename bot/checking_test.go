package bot

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/commands"
	"github.com/gpuplan/gpuplan/store"
)

// lostReplyStore is the embedded store with a Redis-like lost reply on
// every reserve: after sent it says it is checking (store.NotifyChecking),
// takes lookup to look the request up, then answers what happened.
type lostReplyStore struct {
	*store.Embedded
	sent, lookup time.Duration
}

func (s lostReplyStore) Reserve(ctx context.Context, req store.ReserveRequest) (store.Reservation, error) {
	time.Sleep(s.sent)
	store.NotifyChecking(ctx, "reserve")
	time.Sleep(s.lookup)
	return s.Embedded.Reserve(ctx, req)
}

// Issue 12: while the store looks up a change whose reply was lost, the
// slash command's user sees "the store did not answer; checking…" — in
// the ack when the store says so before the ack is due, else on
// response_url (replacing "Working on it…" when that was shown) — and then
// the answer, which replaces the notice.
func TestSlashSaysItIsCheckingALostReply(t *testing.T) {
	for _, tc := range []struct {
		name         string
		sent, budget time.Duration
		zoneKnown    bool
		ack          string // what the ack says
		replaceAck   bool   // the notice replaces the ack's message
	}{
		{"before the ack is due", 0, 2 * time.Second, true, commands.CheckingText, false},
		{"after Working on it", 400 * time.Millisecond, 100 * time.Millisecond, true, "Working on it", true},
		{"after a bare ack (zone looked up first)", 0, 2 * time.Second, false, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			emb, err := store.OpenEmbedded(filepath.Join(t.TempDir(), "r.db"), nil)
			if err != nil {
				t.Fatal(err)
			}
			defer emb.Close()
			h := start(t, func(c *Config, b *Bot) {
				c.AckBudget = tc.budget
				b.cmds = testCommands{Set: commands.New(commands.Deps{Reservations: lostReplyStore{emb, tc.sent, 300 * time.Millisecond}})}
				if tc.zoneKnown {
					b.tz.m = map[string]tzEntry{"U0001": {loc: time.UTC, at: b.now()}}
				}
			})
			p := h.ackPayload(h.fake.Push(h.fake.SlashCommand("reserve 1 on server-h for 2h", "U0001", "C0001")))
			if text, _ := p["text"].(string); !strings.Contains(text, tc.ack) || (tc.ack == "" && p != nil) {
				t.Fatalf("the ack: %s, want %q", blocksJSON(p), tc.ack)
			}
			want := 1 // the answer
			if tc.ack != commands.CheckingText {
				want = 2 // the notice, then the answer
			}
			posts := h.fake.WaitResponsePosts(t, want, 5*time.Second)
			if want == 2 {
				notice := posts[0].Body
				if text, _ := notice["text"].(string); !strings.Contains(text, commands.CheckingText) || (notice["replace_original"] == true) != tc.replaceAck {
					t.Errorf("the notice: %s", blocksJSON(notice))
				}
			}
			answer := posts[want-1].Body
			if answer["replace_original"] != true || strings.Contains(blocksJSON(answer), "checking") || !strings.Contains(blocksJSON(answer), "server-h") {
				t.Errorf("the answer does not replace the notice: %s", blocksJSON(answer))
			}
		})
	}
}
