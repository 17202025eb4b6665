package bot

import (
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/bot/slackfake"
	"github.com/gpuplan/gpuplan/commands"
)

// A mention in the thread of a plan the bot answered, with words that are
// no plan of their own ("what about on 4x a100?"), is read with that plan's
// request, through the real slack-go client and the fake Slack; the same
// words in another thread, with no plan before them, are the usual
// question back. A DM follows up on the DM's last plan.
func TestFollowUpInAThreadReadsWithItsPlan(t *testing.T) {
	h := start(t)
	env := h.fake.AppMention("<@"+slackfake.BotUserID+"> "+planText, "U0001", "C0001", "")
	root := env.Event()["ts"].(string)
	h.fake.Push(env)
	h.fake.WaitCalls(t, "chat.postMessage", 1, 5*time.Second)

	h.fake.Push(h.fake.AppMention("<@"+slackfake.BotUserID+"> what about on 4x a100?", "U0002", "C0001", root))
	calls := h.fake.WaitCalls(t, "chat.postMessage", 2, 5*time.Second)
	c := calls[1]
	js := blocksJSON(c.JSON) + c.Param("blocks")
	if c.Param("thread_ts") != root || !strings.Contains(js, "bert-base") || !strings.Contains(js, "a100") || !strings.Contains(js, "follow-up") {
		t.Errorf("follow-up in the plan's thread: thread %q, %.800s", c.Param("thread_ts"), js)
	}

	h.fake.Push(h.fake.AppMention("<@"+slackfake.BotUserID+"> what about on 4x a100?", "U0002", "C0001", "1700000009.000100"))
	calls = h.fake.WaitCalls(t, "chat.postMessage", 3, 5*time.Second)
	if js := blocksJSON(calls[2].JSON) + calls[2].Param("blocks"); strings.Contains(js, "bert-base") {
		t.Errorf("a thread with no plan read the other thread's: %.400s", js)
	}

	h.fake.Push(h.fake.DirectMessage(planText, "U0003"))
	h.fake.WaitCalls(t, "chat.postMessage", 4, 5*time.Second)
	h.fake.Push(h.fake.DirectMessage("비용은?", "U0003"))
	calls = h.fake.WaitCalls(t, "chat.postMessage", 5, 5*time.Second)
	if js := blocksJSON(calls[4].JSON) + calls[4].Param("blocks"); !strings.Contains(js, "bert-base") {
		t.Errorf("DM follow-up: %.600s", js)
	}
}

// The memory keeps the newest plan of each conversation, forgets one older
// than its time, and holds no more than conversationsMax.
func TestConversationsRememberTheLastPlan(t *testing.T) {
	var c conversations
	now := time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)
	plan := func(r string) *commands.Reply { return &commands.Reply{Data: &commands.PlanData{Request: r}} }
	c.remember("C1/1", plan("a"), now)
	c.remember("C1/1", plan("b"), now.Add(time.Minute))
	c.remember("C1/2", &commands.Reply{}, now) // not a plan: nothing kept
	if got := c.get("C1/1", now.Add(2*time.Minute), threadMemory); got != "b" {
		t.Errorf("get = %q, want the newest plan b", got)
	}
	if got := c.get("C1/1", now.Add(25*time.Hour), threadMemory); got != "" {
		t.Errorf("a day later: %q, want it forgotten", got)
	}
	if got := c.get("C1/2", now, threadMemory); got != "" {
		t.Errorf("a non-plan reply was kept: %q", got)
	}
	for i := range conversationsMax + 10 {
		c.remember("K/"+string(rune('a'+i%26))+strings.Repeat("x", i/26), plan("r"), now.Add(time.Duration(i)*time.Second))
	}
	if n := len(c.m); n > conversationsMax {
		t.Errorf("%d conversations kept, want at most %d", n, conversationsMax)
	}
}

// A mention that asks two unrelated plans is answered with both, through
// the real slack-go client and the fake Slack.
func TestTwoQuestionsInOneMention(t *testing.T) {
	h := start(t)
	h.fake.Push(h.fake.AppMention("<@"+slackfake.BotUserID+"> how long to finetune bert-base on 100k samples on an a100? also how many h100s to serve llama 3 70b?", "U0001", "C0001", ""))
	calls := h.fake.WaitCalls(t, "chat.postMessage", 1, 5*time.Second)
	c := calls[0]
	js := blocksJSON(c.JSON) + c.Param("blocks")
	for _, want := range []string{"bert-base-uncased", "llama-3-70b", "2 questions in one message"} {
		if !strings.Contains(js, want) {
			t.Errorf("the reply lacks %q: %.900s", want, js)
		}
	}
}
