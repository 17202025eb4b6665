package bot

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/gpuplan/gpuplan/commands"
	"github.com/slack-go/slack"
	"go.uber.org/zap"
)

// Posting limits (slack-platform-limits.md §3): chat.postMessage allows
// about one message per second per channel; a 429 says how long to wait.
const (
	postInterval  = time.Second
	postRetries   = 3
	maxPacedChans = 1024 // beyond this many channels, forget those whose slot has passed
	maxAltText    = 1000
)

// outbox paces posts per channel and holds the client Post uses. Its zero
// value is ready.
type outbox struct {
	mu   sync.Mutex
	next map[string]time.Time // channel → earliest time of its next post

	once sync.Once
	api  *slack.Client
}

// pace waits for channel's next posting slot (at most one message per
// postInterval per channel, whichever path posts) and claims it. It
// returns early with ctx's error; the claimed slot is then simply lost.
func (b *Bot) pace(ctx context.Context, channel string) error {
	now := time.Now()
	b.out.mu.Lock()
	if b.out.next == nil {
		b.out.next = map[string]time.Time{}
	}
	if len(b.out.next) > maxPacedChans {
		for ch, t := range b.out.next {
			if t.Before(now) {
				delete(b.out.next, ch)
			}
		}
	}
	at := now
	if t, ok := b.out.next[channel]; ok && t.After(at) {
		at = t
	}
	b.out.next[channel] = at.Add(postInterval)
	b.out.mu.Unlock()
	return sleepCtx(ctx, at.Sub(now))
}

// sleepCtx waits d or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// postClient is the Web API client of Post: the bot's, without slack-go's
// own 429 retries, so that Post's retries are the only ones and each goes
// through the channel's pacing again.
func (b *Bot) postClient() *slack.Client {
	b.out.once.Do(func() {
		var opts []slack.Option
		if b.cfg.APIURL != "" {
			opts = append(opts, slack.OptionAPIURL(b.cfg.APIURL))
		}
		b.out.api = slack.New(b.cfg.BotToken.Reveal(), opts...)
	})
	return b.out.api
}

// retryRateLimited runs call, and again after each *slack.RateLimitedError
// once its RetryAfter has passed, at most postRetries more times. A wait
// that would outlast ctx is not started: the rate-limit error is returned.
func retryRateLimited(ctx context.Context, call func() error) error {
	for attempt := 0; ; attempt++ {
		err := call()
		var rl *slack.RateLimitedError
		if err == nil || !errors.As(err, &rl) || attempt == postRetries {
			return err
		}
		wait := max(rl.RetryAfter, time.Second)
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < wait {
			return err
		}
		if werr := sleepCtx(ctx, wait); werr != nil {
			return err
		}
	}
}

// Post posts reply in channel as a Block Kit message with its plain-text
// fallback, then uploads each of reply.Files (the digest's chart) into
// the message's thread through files.getUploadURLExternal and
// files.completeUploadExternal. It is what scheduled digests use.
//
// Posts to one channel are at most one per second, shared with the bot's
// announcements; a 429 is waited out (Retry-After, bounded by ctx) and
// retried, at most three times.
//
// The message is what counts: when it went out, Post returns its ts and a
// nil error even if an upload failed (the failure is logged with the
// channel and file name). When the message did not go out, Post returns
// "" and the error, and uploads nothing.
func (b *Bot) Post(ctx context.Context, channel string, reply *commands.Reply) (ts string, err error) {
	if channel == "" {
		return "", errors.New("post: no channel")
	}
	if reply == nil {
		return "", errors.New("post: no reply")
	}
	api := b.postClient()
	ch, ts, err := b.postMessage(ctx, channel, "", renderReply(reply, maxMessageBlocks))
	if err != nil {
		return "", fmt.Errorf("post to %s: %w", channel, err)
	}
	log := b.log.With(zap.String("channel", ch), zap.String("ts", ts))
	if reply.Announces != "" {
		if err := b.cmds.Announced(ctx, reply.Announces, ch, ts); err != nil {
			log.Warn("could not record the announcement", zap.Error(err))
		}
	}
	for _, f := range reply.Files {
		if err := b.upload(ctx, api, ch, ts, f); err != nil {
			log.Error("file upload failed; the message was posted without it",
				zap.String("file", f.Name), zap.Int("bytes", len(f.Data)), zap.Error(err))
			continue
		}
		log.Info("file uploaded", zap.String("file", f.Name), zap.Int("bytes", len(f.Data)))
	}
	return ts, nil
}

// postMessage posts msg in channel (in thread when it is set) through
// Post's client, paced per channel, with 429s waited out and retried. It
// answers the channel Slack posted in (an id, also when channel was a
// name) and the message's ts.
func (b *Bot) postMessage(ctx context.Context, channel, thread string, msg Message) (ch, ts string, err error) {
	opts := []slack.MsgOption{slack.MsgOptionText(msg.Text, false), slack.MsgOptionBlocks(msg.Blocks...)}
	if thread != "" {
		opts = append(opts, slack.MsgOptionTS(thread))
	}
	err = retryRateLimited(ctx, func() error {
		if err := b.pace(ctx, channel); err != nil {
			return err
		}
		var err error
		ch, ts, err = b.postClient().PostMessageContext(ctx, channel, opts...)
		return err
	})
	if err != nil {
		return "", "", err
	}
	if ch == "" {
		ch = channel
	}
	return ch, ts, nil
}

// upload puts one file into the thread of (channel, ts).
func (b *Bot) upload(ctx context.Context, api *slack.Client, channel, ts string, f commands.File) error {
	if len(f.Data) == 0 {
		return errors.New("empty file")
	}
	title := f.Title
	if title == "" {
		title = f.Name
	}
	return retryRateLimited(ctx, func() error {
		_, err := api.UploadFileContext(ctx, slack.UploadFileParameters{
			Reader:          bytes.NewReader(f.Data), // fresh for each attempt
			FileSize:        len(f.Data),
			Filename:        f.Name,
			Title:           title,
			AltTxt:          truncate(f.AltText, maxAltText),
			Channel:         channel,
			ThreadTimestamp: ts,
		})
		return err
	})
}
