package lang

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// The digest command's words: which channel, what to do, and a schedule
// on the wall clock ("daily 09:00", "weekly mon 09:00 Asia/Seoul",
// `cron "0 9 * * 1-5"`).

// What a digest command asks for.
const (
	DigestList     = "list"     // every channel's schedule
	DigestPreview  = "now"      // a digest now, privately
	DigestOff      = "off"      // stop this channel's digest
	DigestSchedule = "schedule" // post one on a schedule
)

// DigestArgs is a digest command as read.
type DigestArgs struct {
	// Channel is the channel's id when the words name one ("<#C0TEAM|gpu-team>",
	// "#C0TEAM"); "" means the channel the command was typed in.
	Channel string
	Action  string // DigestList, DigestPreview, DigestOff or DigestSchedule
	// Schedule is what DigestSchedule asks for.
	Schedule Schedule
	// Period ("day" or "week") and Servers (as typed) are what a preview
	// covers; no servers means all of them.
	Period  string
	Servers []string
}

// Schedule is when a digest is posted and what it covers.
type Schedule struct {
	Spec   string // 5-field cron, read in TZ: "0 9 * * 1"
	Label  string // as people say it: "weekly Mon 09:00"
	Period string // "day" or "week": what each digest covers
	TZ     string // IANA name
	Cron   bool   // typed as a cron spec, which only a scheduler can check
}

const scheduleHint = "try `digest daily 09:00`, `digest weekly mon 09:00 Europe/Berlin` or `digest cron \"0 9 * * 1-5\"`"

// ParseDigest reads the digest command:
//
//	digest   = [channel] [action] .
//	channel  = "<#" id ["|" name] ">" | ["#"] id .          a Slack channel id: C… or G…
//	action   = "list" | ("now"|"preview") {period | server} | ("off"|"stop"|"remove")
//	         | schedule .
//	period   = "day"|"daily"|"24h" | "week"|"weekly"|"7d" .
//	schedule = ("daily" | "every day" | "매일") clock [tz]
//	         | ("weekly" | "매주") weekday clock [tz]
//	         | "cron" quoted-spec {tz | "daily" | "weekly"} .
//	clock    = "09:00" | "9:30" | "6pm" … .                  (Clock)
//	tz       = an IANA name: "Asia/Seoul", "UTC" .
//
// No action lists. The schedule's time zone is tz when given, else
// defaultTZ. When only the schedule's words are wrong, Action is still
// DigestSchedule, so the caller can first tell who may schedule at all.
func ParseDigest(args string, defaultTZ *time.Location) (DigestArgs, error) {
	words := strings.Fields(args)
	var a DigestArgs
	if len(words) > 0 {
		if c, ok := ChannelID(words[0]); ok {
			a.Channel = c
			words = words[1:]
		} else if strings.HasPrefix(words[0], "#") || strings.HasPrefix(words[0], "<#") {
			return a, said(en.Tf("`%s` is not a channel I can use", words[0]), &UserError{Hint: "type `#` and pick the channel from the list, so Slack sends its id"})
		}
	}
	verb := DigestList
	if len(words) > 0 {
		verb = strings.ToLower(words[0])
		words = words[1:]
	}
	switch verb {
	case "list":
		a.Action = DigestList
		return a, nil
	case "now", "preview":
		a.Action, a.Period = DigestPreview, "day"
		for _, w := range words {
			switch strings.ToLower(w) {
			case "week", "weekly", "7d":
				a.Period = "week"
			case "day", "daily", "24h":
				a.Period = "day"
			default:
				a.Servers = append(a.Servers, w)
			}
		}
		return a, nil
	case "off", "stop", "remove":
		a.Action = DigestOff
		return a, nil
	case "daily", "weekly", "cron", "every", "매일", "매주":
		a.Action = DigestSchedule
		var err error
		a.Schedule, err = ParseSchedule(verb, words, defaultTZ)
		return a, err
	}
	return a, userErrorf("try `digest #gpu-team daily 09:00`, `digest weekly mon 09:00`, `digest off`, `digest list` or `digest now`",
		en.Tf("`digest %s` — I did not understand `%s`", args, verb))
}

// ChannelID reads a channel as Slack sends a picked one ("<#C0123|name>")
// or as its id is typed ("C0123", "#C0123").
func ChannelID(w string) (string, bool) {
	if strings.HasPrefix(w, "<#") && strings.HasSuffix(w, ">") {
		id, _, _ := strings.Cut(w[2:len(w)-1], "|")
		return id, slackChannelID(id, 1)
	}
	id := strings.TrimPrefix(w, "#")
	return id, slackChannelID(id, 2)
}

// slackChannelID reports whether id is C or G and at least more upper-case
// letters or digits after it.
func slackChannelID(id string, more int) bool {
	if len(id) < 1+more || id[0] != 'C' && id[0] != 'G' {
		return false
	}
	for _, c := range []byte(id[1:]) {
		if !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// ParseSchedule reads a digest schedule after its first word (verb):
// `daily 09:00 [tz]`, `every day 09:00 [tz]`, `weekly mon 09:00 [tz]` and
// `cron "<spec>" [tz] [weekly|daily]`. A daily schedule covers a day, a
// weekly one a week; a cron spec covers a day, or a week when it fires on
// one weekday only (or says `weekly`). The spec of a cron schedule is
// checked for its five fields here; whether they are valid is the
// scheduler's to say.
func ParseSchedule(verb string, words []string, defaultTZ *time.Location) (Schedule, error) {
	if defaultTZ == nil {
		defaultTZ = time.UTC
	}
	sub := Schedule{TZ: defaultTZ.String(), Period: "day"}
	clock := func(w string) (int, int, error) {
		h, m, ok := Clock(w)
		if !ok {
			return 0, 0, userErrorf(scheduleHint, en.Tf("`%s` is not a time of day; write it as 09:00 or 18:30", w))
		}
		return h, m, nil
	}
	var rest []string
	switch verb = scheduleVerb(verb); verb {
	case "daily", "every":
		if verb == "every" {
			if len(words) == 0 || strings.ToLower(words[0]) != "day" {
				return sub, userErrorf(scheduleHint, en.T("`every` needs `day`: `digest every day 09:00`"))
			}
			words = words[1:]
		}
		if len(words) == 0 {
			return sub, userErrorf(scheduleHint, en.T("a daily digest needs a time: `digest daily 09:00`"))
		}
		h, m, err := clock(words[0])
		if err != nil {
			return sub, err
		}
		sub.Spec = fmt.Sprintf("%d %d * * *", m, h)
		sub.Label = fmt.Sprintf("daily %02d:%02d", h, m)
		rest = words[1:]
	case "weekly":
		if len(words) < 2 {
			return sub, userErrorf(scheduleHint, en.T("a weekly digest needs a day and a time: `digest weekly mon 09:00`"))
		}
		wd, ok := Weekday(words[0])
		if !ok {
			return sub, userErrorf(scheduleHint, en.Tf("`%s` is not a day of the week; use mon, tue, … sun", words[0]))
		}
		h, m, err := clock(words[1])
		if err != nil {
			return sub, err
		}
		sub.Spec = fmt.Sprintf("%d %d * * %d", m, h, int(wd))
		sub.Period = "week"
		sub.Label = fmt.Sprintf("weekly %s %02d:%02d", wd.String()[:3], h, m)
		rest = words[2:]
	case "cron":
		spec, after, ok := cronQuoted(strings.Join(words, " "))
		if !ok {
			return sub, userErrorf("put the spec in quotes: `digest cron \"0 9 * * 1-5\"`", en.T("the cron spec must be in double quotes"))
		}
		sub.Cron = true
		f := strings.Fields(spec)
		if len(f) != 5 {
			return sub, userErrorf("five fields: minute hour day-of-month month day-of-week, e.g. \"0 9 * * 1-5\"", en.Tf("the cron spec `%s` has %d fields, not 5", spec, len(f)))
		}
		sub.Spec = strings.Join(f, " ")
		sub.Label = "cron " + sub.Spec
		if _, err := strconv.Atoi(f[4]); err == nil && f[2] == "*" {
			sub.Period = "week"
		}
		rest = strings.Fields(after)
	default:
		return sub, userErrorf(scheduleHint, en.Tf("`%s` is no schedule", verb))
	}
	for _, w := range rest {
		switch lw := strings.ToLower(w); {
		case lw == "weekly" && verb == "cron":
			sub.Period = "week"
		case lw == "daily" && verb == "cron":
			sub.Period = "day"
		default:
			loc, err := time.LoadLocation(w)
			if err != nil || w == "" || w == "Local" {
				return sub, userErrorf("time zones are IANA names: `Asia/Seoul`, `Europe/Berlin`, `America/New_York`, `UTC`", en.Tf("`%s` is not a time zone I know", w))
			}
			sub.TZ = loc.String()
		}
	}
	return sub, nil
}

// cronQuoted splits `"a b" rest` into a b and rest (straight or curly quotes,
// as Slack clients type them).
func cronQuoted(s string) (inside, rest string, ok bool) {
	s = strings.NewReplacer("“", `"`, "”", `"`).Replace(strings.TrimSpace(s))
	if !strings.HasPrefix(s, `"`) {
		return "", "", false
	}
	end := strings.Index(s[1:], `"`)
	if end < 0 {
		return "", "", false
	}
	return s[1 : end+1], s[end+2:], true
}

// scheduleVerb is a schedule's first word in the English the reader
// switches on: "매일" is daily, "매주" weekly ("digest 매주 월 09:00").
func scheduleVerb(verb string) string {
	switch verb = strings.ToLower(verb); verb {
	case "매일":
		return "daily"
	case "매주":
		return "weekly"
	}
	return verb
}
