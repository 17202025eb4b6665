package commands

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gpuplan/gpuplan/i18n"
	"github.com/gpuplan/gpuplan/store"
)

// The announcements of `gpuplan exec`: a booking made for a command that
// runs while it holds the GPUs. The CLI prints them, and with the bot
// token posts them in the team channel (bot.Announcer); they read like
// any reservation's, marked with what runs on the GPUs.

// MaxExecLabel is how many characters of a command an announcement shows.
const MaxExecLabel = 80

// ExecLabel is a command as announcements show it: its first
// MaxExecLabel characters on one line, with no backtick that could end
// the code span it is shown in. The command is whatever its owner typed,
// so it goes through Untrusted: a <@U…>, <!channel> or bidi control in it
// cannot ping or spoof once the announcement is posted (renderers escape
// the rest).
func ExecLabel(command string) string {
	command = Untrusted(strings.ToValidUTF8(command, "?"))
	command = strings.Join(strings.Fields(command), " ")
	command = strings.ReplaceAll(command, "`", "'")
	if utf8.RuneCountInString(command) > MaxExecLabel {
		r := []rune(command)
		command = string(r[:MaxExecLabel-1]) + "…"
	}
	if command == "" {
		command = "(no command)"
	}
	return command
}

// ExecStarted announces an exec booking: the reservation, the command it
// runs and the bound of its lease. until is when the booking ends at the
// latest (the --for bound).
func (s *Set) ExecStarted(req Request, rv store.Reservation, command string, until, now time.Time) *Reply {
	loc := s.loc(req)
	p := req.printer()
	srv, _ := s.deps.Inventory.Server(rv.Server)
	label := "`" + ExecLabel(command) + "`"
	r := &Reply{
		Title: p.Tf("GPUs booked for a job: %s", rv.Server),
		Summary: p.Tf("%s booked %d× %s on %s (GPUs %s) while %s runs, until %s at most",
			mention(rv.Owner), len(rv.GPUs), srv.GPU.Name, rv.Server, rv.GPUList(), label, whenIn(p, until, now, loc)),
		InChannel: true,
		Data:      rv,
		Channel:   s.deps.Inventory.TeamChannel,
		Announces: rv.ID,
		Lang:      p.Lang(),
	}
	if r.Channel == "" {
		r.Channel = rv.Channel
	}
	r.Sections = []Section{
		{Fields: []Field{{p.T("Reservation"), "`" + rv.ID + "`"}, {p.T("GPUs"), rv.GPUList()}, {p.T("Running"), label},
			{p.T("Held"), p.Tf("from %s while it runs (a lease renewed every few minutes), until %s at most", whenIn(p, rv.Start, now, loc), whenIn(p, until, now, loc))}}},
		// No buttons: the job releases the GPUs when it exits.
		{Kind: Context, Text: p.Tf("CUDA_VISIBLE_DEVICES names these GPUs for it, and they are released when it exits. Times in %s.", loc.String())},
	}
	return r
}

// ExecEnded announces the end of an exec job: how long it ran, its exit
// status (a description such as "exit status 3" or "killed by signal
// 9"), and that its GPUs are free again (released says whether this run
// released them; false when the booking had already ended).
func (s *Set) ExecEnded(req Request, rv store.Reservation, command string, ran time.Duration, status string, released bool, now time.Time) *Reply {
	loc := s.loc(req)
	p := req.printer()
	label := "`" + ExecLabel(command) + "`"
	freed := p.T("GPUs released")
	if !released {
		freed = p.T("the booking had already ended")
	}
	r := &Reply{
		Title: p.Tf("Job ended: %s", rv.Server),
		Summary: p.Tf("%s's job %s on %s (GPUs %s) ended after %s, %s; %s",
			mention(rv.Owner), label, rv.Server, rv.GPUList(), formatRanIn(p, ran), status, freed),
		InChannel: true,
		Data:      rv,
		Channel:   s.deps.Inventory.TeamChannel,
		Announces: rv.ID,
		Lang:      p.Lang(),
	}
	if r.Channel == "" {
		r.Channel = rv.Channel
	}
	r.Sections = []Section{{Fields: []Field{
		{p.T("Reservation"), "`" + rv.ID + "`"}, {p.T("GPUs"), rv.GPUList()}, {p.T("Ran"), label},
		{p.T("For"), p.Tf("%s (from %s)", formatRanIn(p, ran), whenIn(p, rv.Start, now, loc))}, {p.T("Exit"), status},
	}}}
	return r
}

// formatRanIn is a job's run time for p's reader: seconds under a minute
// ("42s", "42초"), else as durationIn writes it ("1시간 5분").
func formatRanIn(p *i18n.Printer, d time.Duration) string {
	if d < time.Minute {
		if p.Korean() {
			return fmt.Sprintf("%d초", int(d.Round(time.Second)/time.Second))
		}
		return fmt.Sprintf("%ds", int(d.Round(time.Second)/time.Second))
	}
	return durationIn(p, d)
}

// ExecNotFree answers an exec whose GPUs are not free: who holds them and
// the earliest slot that fits the job's whole window (dur), as a reserve
// conflict does, with the way to wait in line. freeFor is how long they
// are free from now (0: not now), for a shorter --for that runs at once.
func (s *Set) ExecNotFree(req Request, srvName string, count int, gpus []int, ce *store.ConflictError, dur, freeFor time.Duration, now time.Time) (*Reply, error) {
	srv, err := s.deps.Inventory.Server(srvName)
	if err != nil {
		return nil, err
	}
	p := req.printer()
	r := s.conflictReply(p, req.User, reserveArgs{count: count, gpus: gpus, server: srv}, ce, dur, now, s.loc(req))
	text := p.T("The command was not run. Add `--wait` to join the waiting list and start it when the GPUs are free.")
	if f := freeFor.Truncate(time.Minute); f >= time.Minute {
		text += p.Tf(" They are free now for %s: `--for %s` starts it at once.", durationIn(p, f), formatDuration(f))
	}
	r.Sections = append(r.Sections, Section{Kind: Context, Text: text})
	return r, nil
}

// ExecLine is the `gpuplan exec` command line that books n GPUs on server
// for book and runs launch on them (a plan's launch line: exec sets
// CUDA_VISIBLE_DEVICES itself, so the line's own is dropped). When the
// GPUs are free only after wait, it waits in line that long and a margin.
func ExecLine(server string, n int, book, wait time.Duration, launch string) string {
	if rest, ok := strings.CutPrefix(launch, "CUDA_VISIBLE_DEVICES="); ok {
		if _, after, found := strings.Cut(rest, " "); found {
			launch = strings.TrimSpace(after)
		}
	}
	line := fmt.Sprintf("gpuplan exec --on %s --gpus %d --for %s", server, n, formatDuration(book))
	if wait > time.Minute {
		line += " --wait=" + formatDuration(wait+30*time.Minute)
	}
	return line + " -- " + strings.ReplaceAll(launch, "`", "'")
}

// withoutExec is resv less the exec bookings: their end is a lease the
// running job renews, so it says nothing about when their GPUs free up.
func withoutExec(resv []store.Reservation) []store.Reservation {
	var out []store.Reservation
	for _, rv := range resv {
		if _, isExec := rv.ExecCommand(); !isExec {
			out = append(out, rv)
		}
	}
	return out
}
