package bot

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/bot/slackfake"
	"github.com/gpuplan/gpuplan/commands"
	"github.com/gpuplan/gpuplan/digest"
)

// digestReply is a small digest with a chart.
func digestReply(t *testing.T) *commands.Reply {
	t.Helper()
	png, err := digest.HeatMap{Title: "test", Rows: []string{"server-h/0"}, Values: [][]float64{{0.5, 1}}}.PNG()
	if err != nil {
		t.Fatal(err)
	}
	return &commands.Reply{Title: "GPU digest", Summary: "<!channel> 40% of booked time idle",
		Sections: []commands.Section{{Heading: "server-h", Text: "booked 120 GPU-h"}},
		Files:    []commands.File{{Name: "digest.png", Title: "GPU utilization by hour", AltText: "heat map", Type: "image/png", Data: png}}}
}

func TestPostPutsTheChartInTheMessagesThread(t *testing.T) {
	h := start(t)
	h.fake.AddChannel("C0100", "gpu-digest", false, true)
	reply := digestReply(t)
	ts, err := h.bot.Post(context.Background(), "C0100", reply)
	if err != nil || ts == "" {
		t.Fatalf("Post: %q, %v", ts, err)
	}
	msgs := h.fake.Messages("C0100")
	if len(msgs) != 1 || msgs[0].TS != ts || !strings.Contains(msgs[0].Text, "GPU digest") || len(msgs[0].Blocks) == 0 {
		t.Fatalf("messages: %+v", msgs)
	}
	if strings.Contains(blocksJSON(msgs[0].Blocks), "<!channel>") || strings.Contains(msgs[0].Text, "<!channel>") {
		t.Error("unescaped text in the digest")
	}
	files := h.fake.Files()
	if len(files) != 1 {
		t.Fatalf("%d files uploaded", len(files))
	}
	f := files[0]
	if !f.Completed || f.Channel != "C0100" || f.ThreadTS != ts || f.Filename != "digest.png" || f.Title != "GPU utilization by hour" ||
		!bytes.Equal(f.Content, reply.Files[0].Data) {
		t.Errorf("file: %+v", f)
	}
}

func TestPostWaitsOutA429AndRetries(t *testing.T) {
	h := start(t)
	h.fake.AddChannel("C0100", "gpu-digest", false, true)
	h.fake.Inject("chat.postMessage", slackfake.Fault{Status: 429, RetryAfter: 1, Times: 1})
	ts, err := h.bot.Post(context.Background(), "C0100", &commands.Reply{Title: "digest", Summary: "s"})
	if err != nil || ts == "" {
		t.Fatalf("Post: %q, %v", ts, err)
	}
	calls := h.fake.Calls("chat.postMessage")
	if len(calls) != 2 || calls[0].Status != 429 || calls[1].Status != 200 {
		t.Fatalf("calls: %d", len(calls))
	}
	if gap := calls[1].At.Sub(calls[0].At); gap < 950*time.Millisecond {
		t.Errorf("retried after %v; Retry-After said 1 s", gap)
	}
	// A rate limit that outlasts the caller's deadline is not waited for.
	h.fake.Inject("chat.postMessage", slackfake.Fault{Status: 429, RetryAfter: 30, Times: 1})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	began := time.Now()
	if _, err := h.bot.Post(ctx, "C0100", &commands.Reply{Title: "digest"}); err == nil || !strings.Contains(err.Error(), "rate limit") {
		t.Errorf("want the rate-limit error, got %v", err)
	}
	if d := time.Since(began); d > 2500*time.Millisecond {
		t.Errorf("Post waited %v for a retry it could not make", d)
	}
}

func TestPostsToOneChannelAreASecondApart(t *testing.T) {
	h := start(t)
	h.fake.AddChannel("C0100", "gpu-digest", false, true)
	h.fake.AddChannel("C0200", "ops", false, true)
	var wg sync.WaitGroup
	for _, ch := range []string{"C0100", "C0100", "C0200"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := h.bot.Post(context.Background(), ch, &commands.Reply{Title: "digest " + ch}); err != nil {
				t.Errorf("Post %s: %v", ch, err)
			}
		}()
	}
	wg.Wait()
	at := map[string][]time.Time{}
	for _, c := range h.fake.Calls("chat.postMessage") {
		at[c.Param("channel")] = append(at[c.Param("channel")], c.At)
	}
	if len(at["C0100"]) != 2 || len(at["C0200"]) != 1 {
		t.Fatalf("posts: %v", at)
	}
	if gap := at["C0100"][1].Sub(at["C0100"][0]); gap < 950*time.Millisecond {
		t.Errorf("two posts to one channel %v apart; at most one per second", gap)
	}
	if d := at["C0200"][0].Sub(at["C0100"][0]); d > 500*time.Millisecond {
		t.Errorf("another channel's post waited %v", d)
	}
}

func TestAFailedUploadDoesNotLoseTheMessage(t *testing.T) {
	h := start(t)
	h.fake.AddChannel("C0100", "gpu-digest", false, true)
	h.fake.Inject("files.getUploadURLExternal", slackfake.Fault{SlackError: "internal_error"})
	ts, err := h.bot.Post(context.Background(), "C0100", digestReply(t))
	if err != nil || ts == "" || len(h.fake.Messages("C0100")) != 1 {
		t.Fatalf("Post: %q, %v: the message must go out", ts, err)
	}
	if n := len(h.fake.Files()); n != 0 {
		t.Errorf("%d files", n)
	}
	h.waitLog("file upload failed", "digest.png")

	// A message that cannot be posted is an error, and nothing is uploaded.
	ts, err = h.bot.Post(context.Background(), "C0999", digestReply(t))
	if err == nil || ts != "" || !strings.Contains(err.Error(), "channel_not_found") {
		t.Errorf("Post to an unknown channel: %q, %v", ts, err)
	}
	if n := len(h.fake.Calls("files.getUploadURLExternal")); n != 1 {
		t.Errorf("%d upload attempts, want only the first post's", n)
	}
}

// privateFiles answers every command privately with a chart attached,
// as `digest now` does.
type privateFiles struct {
	testCommands
	t *testing.T
}

func (c privateFiles) Dispatch(ctx context.Context, req commands.Request) (*commands.Reply, error) {
	r := digestReply(c.t)
	r.Summary = "preview"
	return r, nil
}

// An ephemeral answer cannot carry a file: the chart of a private reply
// goes to the user's DM, and the answer says so.
func TestPrivateReplyFilesGoToTheDM(t *testing.T) {
	h := start(t, func(_ *Config, b *Bot) {
		b.cmds = privateFiles{testCommands: testCommands{Set: commands.New(commands.Deps{})}, t: t}
	})
	// (Any command: privateFiles answers each with a chart. Not "digest",
	// which waits for the user's zone and answers through response_url.)
	p := h.ackPayload(h.fake.Push(h.fake.SlashCommand("status", "U0001", "C0001")))
	if !strings.Contains(blocksJSON(p["blocks"]), "direct messages") {
		t.Errorf("the answer should say where the chart went: %v", p)
	}
	// The upload is two calls (get the URL, complete it): wait for both.
	completed := func() bool { f := h.fake.Files(); return len(f) > 0 && f[0].Completed }
	for deadline := time.Now().Add(5 * time.Second); !completed() && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	files := h.fake.Files()
	if len(files) != 1 || files[0].Channel != slackfake.DMChannel("U0001") || !files[0].Completed {
		t.Fatalf("files: %+v", files)
	}
}
