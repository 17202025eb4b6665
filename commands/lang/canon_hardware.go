package lang

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Hardware in the reading pass: team servers, GPU counts and their
// counters, GPU names written loosely.

func isGPUWord(w string) bool {
	switch w {
	case "gpu", "gpus", "card", "cards", "hardware", "instance", "accelerator":
		return true
	}
	return false
}

// koLetters are the Korean names of the letters servers are named by
// ("서버 에이", "에이치 서버").
var koLetters = map[string]string{"에이": "a", "비": "b", "씨": "c", "디": "d", "이": "e", "에프": "f", "지": "g",
	"에이치": "h", "아이": "i", "제이": "j", "케이": "k", "엘": "l", "엠": "m", "엔": "n", "오": "o", "피": "p", "큐": "q",
	"알": "r", "에스": "s", "티": "t", "유": "u", "브이": "v", "더블유": "w", "엑스": "x", "와이": "y", "제트": "z"}

// serverName is the team server a word names: its name ("server-h"),
// its short name ("h", "serverh", "srv-h", "에이치"), or the GPU type
// only one team server has ("a100" for server-a); "" for none.
func (c *canonizer) serverName(w string) string {
	if w == "" || len(c.servers) == 0 {
		return ""
	}
	w = strings.TrimSuffix(strings.TrimSuffix(w, "-server"), "-box")
	if c.servers[w] {
		return w
	}
	if l, ok := koLetters[w]; ok {
		w = l
	} else {
		for _, p := range koParticles {
			if l, ok := koLetters[strings.TrimSuffix(w, p)]; ok && strings.HasSuffix(w, p) {
				w = l // "서버 에이로", "에이치에서"
				break
			}
		}
	}
	for _, pre := range []string{"server-", "server", "srv-", "srv", ""} {
		if rest, ok := strings.CutPrefix(w, pre); ok && rest != "" && c.servers["server-"+rest] {
			return "server-" + rest
		}
	}
	if c.gpu(w) {
		return oneServerWith(c.serverGPU, w)
	}
	return ""
}

// oneServerWith is the one team server (by name, to its GPU id) whose GPUs
// a GPU word names ("a100" for server-a), "" when none or several do: the
// type does not say which.
func oneServerWith(serverGPU map[string]string, w string) string {
	found := ""
	for name, id := range serverGPU {
		if strings.Contains(id, strings.TrimPrefix(w, "rtx-")) {
			if found != "" {
				return ""
			}
			found = name
		}
	}
	return found
}

// serverLetter reports whether w is what follows "server" in a server's
// name: one letter, or a letter and a digit ("x", "q", "h2").
func serverLetter(w string) bool {
	if w == "" || len(w) > 2 || w[0] < 'a' || w[0] > 'z' {
		return false
	}
	return len(w) == 1 || w[1] >= '0' && w[1] <= '9'
}

func isServerWord(s string) bool {
	switch s {
	case "server", "srv", "box", "서버", "node", "machine", "rig":
		return true
	}
	return false
}

// server reads a team server: "server-h", "server h", "h server", "the h
// box", "A-server", "the a100 machine".
func (c *canonizer) server(i int) int {
	if len(c.servers) == 0 {
		return i
	}
	w := c.w(i)
	// alone, a word names a server only in a server's own form ("server-h",
	// "serverh", "srv-h", "a-server"): a bare "h" is hours
	named := strings.HasPrefix(w, "server") || strings.HasPrefix(w, "srv") || strings.HasSuffix(w, "-server") || strings.HasSuffix(w, "-box")
	if name := c.serverName(w); name != "" && (c.servers[w] || named) {
		if c.busyAfter(i+1) && c.otherServerNamed(name) {
			// "server-h에서 다른 실험 돌고 있어서요 … server-a 쪽으로": the busy
			// one is why, not where
			c.skip(i, i+1)
			return i + 1
		}
		if k := len(c.out) - 1; k >= 0 && c.out[k].w == "1" && (strings.EqualFold(c.out[k].raw, "one") || strings.EqualFold(c.out[k].raw, "single")) {
			c.out = c.out[:k] // "is one server-h enough?": the one server, all its GPUs
		}
		c.emit(name, i, i+1)
		if next := c.w(i + 1); strings.HasPrefix(next, "한대") || strings.HasPrefix(next, "1대") {
			return i + 2 // "server-h 한대로": the one server, all its GPUs (read, not skipped)
		}
		return i + 1
	}
	if isServerWord(w) {
		if name := c.serverName(c.w(i + 1)); name != "" && !c.gpu(c.w(i+1)) {
			c.emit(name, i, i+2)
			return i + 2
		}
	}
	if (w == "server" || w == "server-" || w == "서버" || w == "서버-") && serverLetter(c.w(i+1)) && !c.gpu(c.w(i+1)) {
		// "server x", "서버-q": written as a server's name is, but the team
		// has none of that name; the readers say so and name the team's
		c.emit("server-"+c.w(i+1), i, i+2)
		return i + 2
	}
	if isServerWord(c.w(i + 1)) {
		if name := c.serverName(w); name != "" {
			c.emit(name, i, i+2)
			return i + 2
		}
	}
	return i
}

// busyAfter reports whether the words from k on say the server just named
// is in use: "다른 실험 돌고 있어서", "is busy", "사용 중".
func (c *canonizer) busyAfter(k int) bool {
	for j := k; j < k+4 && j < len(c.in); j++ {
		w := c.w(j)
		switch {
		case w == "busy" || w == "occupied" || w == "taken" || w == "full" || c.words(j, "in", "use") || c.words(j, "tied", "up"),
			strings.HasPrefix(w, "돌고") || strings.HasPrefix(w, "돌아가고") || strings.HasPrefix(w, "쓰고") || strings.HasPrefix(w, "사용중") ||
				w == "사용" && strings.HasPrefix(c.w(j+1), "중") || strings.HasPrefix(w, "점유") || strings.HasPrefix(w, "꽉"):
			return true
		case c.serverName(w) != "":
			return false // the next server's words
		}
	}
	return false
}

// otherServerNamed reports whether a team server other than name is named
// anywhere in the request.
func (c *canonizer) otherServerNamed(name string) bool {
	for j := range c.in {
		if n := c.serverName(c.w(j)); n != "" && n != name && (c.servers[c.w(j)] || strings.HasPrefix(c.w(j), "server")) {
			return true
		}
	}
	return false
}

// attachCounts moves a counted GPU number next to its GPU: "h100 2장" and
// "2장 h100" become "h100 x 2" and "2 x h100" (the counter was emitted as
// the word "gpus" after the number).
func (c *canonizer) attachCounts() {
	var out []reqToken
	toks := c.out
	for k := 0; k < len(toks); k++ {
		t := toks[k]
		if t.w != "\x00count" {
			out = append(out, t)
			continue
		}
		// the number is the token before; a GPU name before it or after.
		if len(out) == 0 {
			continue
		}
		num := out[len(out)-1]
		if _, rest, ok := reqScanInt(num.w); !ok || rest != "" {
			continue
		}
		prev := ""
		if len(out) >= 2 {
			prev = out[len(out)-2].w
		}
		if prev != "" && (c.gpu(prev) || isMemWord(prev) || c.servers[prev]) {
			// a counter follows what it counts: "v100 4장 a100 4장" is 4 of each
			// "h100 2장" → "h100 x 2"
			x := reqToken{raw: "x", w: "x", start: num.start, end: num.start}
			out = append(out[:len(out)-1], x, num)
			continue
		}
		next := ""
		if k+1 < len(toks) {
			next = toks[k+1].w
		}
		if c.gpu(next) || c.servers[next] {
			// "2장 h100", "8 gpus h100": "2 x" before the GPU
			out = append(out, reqToken{raw: "x", w: "x", start: t.start, end: t.start})
			continue
		}
		if g := c.onlyGPU(toks); g >= 0 {
			// "8장으로 … h100": the one GPU of the request, wherever it is
			out = out[:len(out)-1]
			c.pending = append(c.pending, pendingCount{gpu: g, num: num})
			continue
		}
		if !isHangulWord(t.raw) {
			// "on 8 gpus" names no GPU: the readers say so
			out = append(out, reqToken{raw: t.raw, w: strings.ToLower(t.raw), start: t.start, end: t.end})
		} else {
			// "gpu 8장으로": cards counted, none named
			out = append(out, reqToken{raw: t.raw, w: "gpus", start: t.start, end: t.end})
		}
	}
	c.out = c.placePending(out, toks)
}

// pendingCount is a GPU count written away from its GPU.
type pendingCount struct {
	gpu int // index of the GPU token in the canonical words
	num reqToken
}

// onlyGPU is the index of the one GPU (or server) the words name, -1 when
// there is none or more than one.
func (c *canonizer) onlyGPU(toks []reqToken) int {
	at := -1
	for k, t := range toks {
		if c.gpu(t.w) || c.servers[t.w] {
			if at >= 0 {
				return -1
			}
			at = k
		}
	}
	return at
}

// placePending writes each pending count after its GPU: "h100 x 8".
func (c *canonizer) placePending(out, toks []reqToken) []reqToken {
	if len(c.pending) == 0 {
		return out
	}
	p := c.pending[0]
	c.pending = nil
	g := toks[p.gpu]
	for k, t := range out {
		if t.start == g.start && t.w == g.w {
			// the count keeps a zero-width span at the GPU's end, so spans stay in order
			at := g.end
			ins := []reqToken{{raw: "x", w: "x", start: at, end: at}, {raw: p.num.raw, w: p.num.w, start: at, end: at}}
			// a count already written beside the GPU wins
			if k+1 < len(out) && out[k+1].w == "x" {
				return out
			}
			if k > 0 {
				if _, r, ok := reqScanInt(out[k-1].w); ok && (r == "" || r == "x") || out[k-1].w == "x" {
					return out
				}
			}
			return append(out[:k+1], append(ins, out[k+1:]...)...)
		}
	}
	return out
}

// isMemWord is a memory qualifier after a GPU name ("a100 80gb").
func isMemWord(w string) bool {
	v, unit, ok := reqScanNumber(w)
	return ok && v.v > 0 && (unit == "gb" || unit == "g")
}

// gpuWords reads GPU names written loosely: "6000 ada" (one name in two
// words), "a100s" (a plural), "16gb v100" (the memory first).
func (c *canonizer) gpuWords(i int) int {
	w, next := c.w(i), c.w(i+1)
	if next != "" && !c.gpu(w) && strings.ContainsAny(w, "abcdefghijklmnopqrstuvwxyz0123456789") && !strings.HasPrefix(next, "$") {
		// (a comma is not half of a name: ", a100" is the A100; nor is
		// a sum: "a $5000 budget")
		for _, j := range []string{w + next, w + "-" + next} {
			if c.gpu(j) {
				c.emit(j, i, i+2)
				return i + 2
			}
		}
	}
	if len(w) > 2 && strings.HasSuffix(w, "x") && !c.gpu(w) && c.gpu(w[:len(w)-1]) && plainCount(next) {
		// "a100x 4": the count's x glued to the name, the count after a space
		c.emit(w[:len(w)-1], i, i+1)
		c.emit("x", i, i+1)
		c.emit(next, i+1, i+2)
		return i + 2
	}
	if len(w) > 2 && strings.HasSuffix(w, "s") && !c.gpu(w) && c.gpu(w[:len(w)-1]) {
		c.pluralGPU = c.pluralGPU || !reqStartsNumber(lastW(c.out)) // "on h100s": how many is open
		c.emit(w[:len(w)-1], i, i+1)
		return i + 1
	}
	if n := c.siblingMemory(i); n > i {
		return n
	}
	if isMemWord(w) && !c.gpu(next) && !c.gpu(next+c.w(i+2)) && !c.gpu(lastW(c.out)) && c.gpuByMem != nil && (len(c.out) == 0 || !reqStartsNumber(lastW(c.out)) || plainCount(lastW(c.out)) || isParamSize(lastW(c.out))) {
		// "is 24GB enough for …", "24기가로": a card of that size stands in,
		// the cheapest the catalogue has, and the reading says so
		if v, _, _ := reqScanNumber(w); v.v > 0 {
			if id := c.gpuByMem(v.v); id != "" {
				c.standInGPU = fmt.Sprintf("%s: %s", c.in[i].raw, id)
				c.emit(id, i, i+1)
				return i + 1
			}
		}
	}
	if v, unit, ok := reqScanNumber(w); ok && unit == "" && i > 0 && c.gpu(c.w(i-1)) && !isCounterWord(next) &&
		(v.v == 16 || v.v == 24 || v.v == 32 || v.v == 40 || v.v == 48 || v.v == 80 || v.v == 94 || v.v == 141) &&
		c.gpu(c.w(i-1)+"-"+w+"gb") && !c.gpu(c.w(i-1)+"-"+w+"gbx") {
		// "a100 80 4장": the memory, said without its unit
		c.emit(w+"gb", i, i+1)
		return i + 1
	}
	if c.gpu(w) && !reqStartsNumber(w) {
		if n, ok := strings.CutSuffix(next, "x"); ok && digitsOnly(n) && n != "" && !c.gpu(c.w(i+2)) && !isMemWord(c.w(i+2)) {
			// "h200 8x vs h100 8x": the count after the name, its x on the count
			c.emit(w, i, i+1)
			at := c.in[i+1].start
			c.out = append(c.out, reqToken{raw: "x", w: "x", start: at, end: at})
			c.emit(n, i+1, i+2)
			return i + 2
		}
		if n, rest, ok := reqScanInt(next); ok && rest == "" && n >= 1 && n <= 4096 && reqUnitClass(c.w(i+2)) <= reqUUnknown &&
			!isCounterWord(c.w(i+2)) && !moneyUnit(c.w(i+2)) && !(n == 16 || n == 24 || n == 32 || n == 40 || n == 48 || n == 80 || n == 94 || n == 141) {
			// "h100 8 / …", "a100 4": the count after the name
			c.emit(w, i, i+1)
			at := c.in[i+1].start
			c.out = append(c.out, reqToken{raw: "x", w: "x", start: at, end: at})
			c.emit(next, i+1, i+2)
			return i + 2
		}
	}
	if joined := next + c.w(i+2); isMemWord(w) && c.gpu(joined) && (c.w(i+2) == "ti" || c.w(i+2) == "super" || c.w(i+2) == "ada") {
		// "a 16gb 4060 ti": the name in two words, at the memory's place
		at := c.in[i].start
		c.out = append(c.out, reqToken{raw: c.in[i+1].raw + " " + c.in[i+2].raw, w: joined, start: at, end: at})
		c.emit(w, i, i+3)
		return i + 3
	}
	if isMemWord(w) && c.gpu(next) {
		// "a 16gb v100" reads as "v100 16gb": the name at the memory's place
		at := c.in[i].start
		c.out = append(c.out, reqToken{raw: c.in[i+1].raw, w: next, start: at, end: at})
		c.emit(w, i, i+2)
		return i + 2
	}
	return i
}

// anyServer reports whether the request names a team server.
func (c *canonizer) anyServer() bool {
	for k := range c.in {
		if c.servers[c.in[k].w] || c.servers["server-"+c.in[k].w] && k > 0 && (c.in[k-1].w == "server" || c.in[k-1].w == "서버") {
			return true
		}
		if strings.HasPrefix(c.in[k].w, "server") && c.servers["server-"+strings.TrimLeft(strings.TrimPrefix(c.in[k].w, "server"), "-")] {
			return true
		}
	}
	return false
}

// countList reads several counts of one GPU — "1, 2, 4, 8 H100s", "2 or 4
// a100s", "4/8 h100" — as that many setups side by side ("1xh100, 2xh100,
// …"): seed 001's "how long on 1, 2, 4, 8 H100s?".
func (c *canonizer) countList(i int) int {
	var counts []int
	j := i
	for {
		n, rest, ok := reqScanInt(c.w(j))
		if !ok || rest != "" || n < 1 || n > 1000 && c.gpu(c.w(j)) {
			break // "3090 vs 4090 vs a6000": GPUs by their numbers, no counts
		}
		counts = append(counts, n)
		j++
		if w := c.w(j); w == "," || w == "or" || w == "and" || w == "/" || w == "vs" {
			j++
			continue
		}
		break
	}
	if len(counts) < 2 {
		return i
	}
	g := c.w(j)
	if !c.gpu(g) {
		if t := strings.TrimSuffix(g, "s"); len(t) > 1 && c.gpu(t) {
			g = t
		} else {
			return i
		}
	}
	k := i
	for n, cnt := range counts {
		// each count keeps the span of its own number
		for k < j {
			if v, rest, ok := reqScanInt(c.w(k)); ok && rest == "" && v == cnt {
				break // "01" is the count 1: compared as numbers, never past the list
			}
			k++
		}
		if n > 0 {
			at := c.in[k].start
			c.out = append(c.out, reqToken{raw: ",", w: ",", start: at, end: at})
		}
		c.emit(fmt.Sprintf("%dx%s", cnt, g), k, k+1)
		k++
	}
	return j + 1
}

// countedBefore reports whether the GPU just read has a count written
// before it ("4x a100 80gb node").
func (c *canonizer) countedBefore() bool {
	n := len(c.out)
	for k := n - 1; k >= 0 && k >= n-3; k-- {
		w := c.out[k].w
		if _, rest, ok := reqScanInt(w); ok && (rest == "x" || rest == "") || strings.Contains(w, "x") && reqStartsNumber(w) {
			return true
		}
	}
	return false
}

// hardwareBefore reports whether a GPU was named in the last few words.
func (c *canonizer) hardwareBefore() bool {
	for k := len(c.out) - 1; k >= 0 && k >= len(c.out)-3; k-- {
		if c.gpu(c.out[k].w) {
			return true
		}
	}
	return false
}

func (c *canonizer) anyGPU(a, b int) bool {
	for m := a; m < b; m++ {
		if w := c.w(m); c.gpu(w) || len(w) > 2 && c.gpu(strings.TrimSuffix(w, "s")) || c.servers[w] {
			return true
		}
		if _, rest, ok := reqScanInt(c.w(m)); ok && c.gpu(strings.TrimPrefix(rest, "x")) {
			return true
		}
	}
	return false
}

// plainCount reports whether w is a bare count of cards ("a single 48gb
// card" reads "1" before the size), not a size or an amount ("7b").
func plainCount(w string) bool {
	n, rest, ok := reqScanInt(w)
	return ok && rest == "" && n >= 1 && n <= 64
}

// slashedGPUs reads GPUs listed with slashes in one word ("h200/a100/v100",
// "we have h200/a100"): each of them, to compare.
func (c *canonizer) slashedGPUs(i int) int {
	w := c.w(i)
	if !strings.Contains(w, "/") {
		return i
	}
	parts := strings.Split(w, "/")
	for _, p := range parts {
		if p == "" || !c.gpu(p) {
			return i
		}
	}
	for k, p := range parts {
		if k > 0 {
			c.emit("or", i, i+1)
		}
		c.emit(p, i, i+1)
	}
	return i + 1
}

// machinesOf reads a GPU at i followed by "N장짜리": machines of N of
// them, and how many when a count of machines follows ("A100 8장짜리 서버
// 2대", "H100 8장짜리 노드 4대로" → 2 nodes of 8x a100, 4 nodes of 8x
// h100); with none, N of the GPU ("a100 8장짜리로 돼?").
func (c *canonizer) machinesOf(g int) int {
	k := g // the GPU's words end at k: "a100 40gb 8장짜리" has its memory too
	if isMemWord(c.w(g + 1)) {
		k = g + 1
	}
	n, rest, ok := reqScanInt(c.w(k + 1))
	if !ok || rest != "" || n < 1 {
		return g
	}
	if !strings.HasPrefix(c.w(k+2), "장짜리") && !(c.w(k+2) == "장" && machineWord(c.w(k+3)) && c.machineCountAt(k+4)) {
		// "a100 8장 서버 두 대로": a plain 장 is machines only with a
		// machine word and a count of them after it
		return g
	}
	j := k + 3
	if machineWord(c.w(j)) {
		j++
	}
	m, isKo := koNumbers[c.w(j)]
	if v, r, isNum := reqScanInt(c.w(j)); isNum && r == "" {
		m, isKo = v, true
	}
	counter := c.w(j + 1)
	end := j + 2
	if v, unit, ok := koCountGlued(c.w(j)); ok {
		m, isKo, counter, end = v, true, unit, j+1 // "노드 두개로", "서버 두대로"
	}
	count := strconv.Itoa(n)
	if !isKo || m < 1 || !strings.HasPrefix(counter, "대") && !strings.HasPrefix(counter, "개") {
		c.emitGPUAt(g, k)
		c.emit("x", k+1, k+3)
		c.emit(count, k+1, k+3)
		return k + 3
	}
	if m == 1 {
		c.emitGPUAt(g, k)
		c.emit("x", k+1, end)
		c.emit(count, k+1, end)
		return end
	}
	c.emit(strconv.Itoa(m), j, end)
	c.emit("nodes", j, end)
	c.emit("of", j, end)
	c.emitGPUAt(g, k)
	c.emit("x", k+1, k+3)
	c.emit(count, k+1, k+3)
	return end
}

// machineCountAt reports whether a count of machines starts at j: a
// number or a Korean one, then 대 ("두 대로", "2대").
func (c *canonizer) machineCountAt(j int) bool {
	m, isKo := koNumbers[c.w(j)]
	if v, r, isNum := reqScanInt(c.w(j)); isNum && r == "" {
		m, isKo = v, true
	}
	return isKo && m >= 1 && strings.HasPrefix(c.w(j+1), "대")
}

// nodesAcross reports whether a, b, c say a number of machines a count of
// GPUs spreads over: "across 2 nodes", "over 4 machines", "on 2 servers".
func nodesAcross(a, b, c string) bool {
	switch a {
	case "across", "over", "in", "on", "spread":
	default:
		return false
	}
	n, rest, ok := reqScanInt(b)
	return ok && rest == "" && n >= 2 && (c == "nodes" || c == "machines" || c == "servers" || c == "boxes" || c == "hosts")
}

// splitOverNodes rewrites a count of a GPU written just before input i
// ("16 h100s", "16x h100") spread over the machines at i ("across 2
// nodes") as that many nodes of the count each holds: "2 nodes of 8x
// h100". It reports false, changing nothing, when no such count is there
// or it does not divide.
func (c *canonizer) splitOverNodes(i int) bool {
	k := len(c.out)
	if k < 2 || !c.gpu(c.out[k-1].w) {
		return false
	}
	at := k - 2
	if c.out[at].w == "x" || c.out[at].w == "*" {
		at--
	}
	if at < 0 {
		return false
	}
	total, rest, ok := reqScanInt(c.out[at].w)
	nodes, _, _ := reqScanInt(c.w(i + 1))
	if !ok || rest != "" && rest != "x" || total < nodes || total%nodes != 0 {
		return false
	}
	gpu := c.out[k-1]
	c.out = c.out[:at]
	c.emit(strconv.Itoa(nodes), i, i+3)
	c.emit("nodes", i, i+3)
	c.emit("of", i, i+3)
	c.emit(strconv.Itoa(total/nodes), i, i+3)
	c.emit("x", i, i+3)
	c.out = append(c.out, reqToken{raw: gpu.raw, w: gpu.w, start: c.in[i].start, end: c.in[i+2].end})
	return true
}

// nodesMark follows the number of machines said after a counted GPU;
// placeNodes rewrites the pair once the GPU's count is in place.
const nodesMark = "\x00nodes"

// nodesAfter reads a number of machines said after a GPU — "h100 8장짜리
// 2노드", "h100 8장 노드 2개", "8x h100 2 nodes" — as the number and a
// mark placeNodes turns into "2 nodes of 8x h100"; it returns i when none
// is there.
func (c *canonizer) nodesAfter(i int) int {
	var nodes, end int
	if v, rest, ok := reqScanInt(c.w(i)); ok && v >= 1 && (rest == "" && nodeWord(c.w(i+1)) || strings.HasPrefix(rest, "노드")) {
		nodes, end = v, i+2
		if rest != "" {
			end = i + 1
		}
	} else if c.w(i) == "노드" {
		if v, rest, ok := reqScanInt(c.w(i + 1)); ok && v >= 2 && (rest == "" || rest == "개" || rest == "대") {
			nodes, end = v, i+2
			if rest == "" && (strings.HasPrefix(c.w(i+2), "개") || strings.HasPrefix(c.w(i+2), "대")) {
				end = i + 3
			}
		}
	}
	if nodes == 0 {
		return i
	}
	if !c.gpuJustBefore() {
		// "2노드 vs 1노드": machines of the shape said beside them
		// (nodeShapeShared), or of none
		c.emit(strconv.Itoa(nodes), i, end)
		c.emit("nodes", i, end)
		return end
	}
	c.emit(strconv.Itoa(nodes), i, end)
	c.emit(nodesMark, i, end)
	return end
}

// gpuJustBefore reports whether one of the last three words written is a
// GPU name.
func (c *canonizer) gpuJustBefore() bool {
	for k := len(c.out) - 1; k >= 0 && k >= len(c.out)-3; k-- {
		w := strings.TrimLeft(c.out[k].w, "0123456789")
		if c.gpu(c.out[k].w) || strings.HasPrefix(w, "x") && c.gpu(strings.TrimPrefix(w, "x")) {
			return true
		}
	}
	return false
}

// placeNodes turns "h100 x 8 2 <nodes>" or "8x h100 2 <nodes>" into "2
// nodes of 8x h100"; a mark with no counted GPU before it is plain
// "nodes".
func (c *canonizer) placeNodes() {
	for q := 1; q < len(c.out); q++ {
		if c.out[q].w != nodesMark {
			continue
		}
		c.out[q].w = "nodes"
		k := q - 1 // the number of nodes
		var gpu, count reqToken
		switch {
		case k >= 3 && c.out[k-2].w == "x" && c.gpu(c.out[k-3].w): // h100 x 8
			gpu, count = c.out[k-3], c.out[k-1]
		case k >= 3 && c.out[k-2].w == "x" && c.gpu(c.out[k-1].w): // 8 x h100
			gpu, count = c.out[k-1], c.out[k-3]
		case k >= 2 && strings.HasSuffix(c.out[k-2].w, "x") && c.gpu(c.out[k-1].w): // 8x h100
			gpu, count = c.out[k-1], c.out[k-2]
			count.w = strings.TrimSuffix(count.w, "x")
		case k >= 1 && c.gpu(c.out[k-1].w) && (k < 2 || !reqStartsNumber(c.out[k-2].w)):
			// "h100 노드 4개": nodes of a GPU with no count a node; the
			// reader gives each node a server's eight and says so
			gpu, nodes := c.out[k-1], c.out[k]
			tail := append([]reqToken(nil), c.out[q+1:]...)
			c.out = append(c.out[:k-1], nodes, reqToken{raw: c.out[q].raw, w: "nodes", start: nodes.start, end: nodes.end},
				reqToken{raw: "of", w: "of", start: nodes.start, end: nodes.start}, gpu)
			c.out = append(c.out, tail...)
			q = k + 2
			continue
		default:
			continue
		}
		per, rest, ok := reqScanInt(count.w)
		if !ok || rest != "" || per < 1 || per > 576 {
			continue
		}
		if n, _, _ := reqScanInt(c.out[k].w); per > 8 && n > 1 && per%n == 0 {
			// "h100 16장 2노드": more than a server holds is the total,
			// spread over the nodes ("8장짜리 2노드" is per node)
			per /= n
			count.w = strconv.Itoa(per)
		}
		from := k - 3
		if strings.HasSuffix(c.out[k-2].w, "x") && c.out[k-2].w != "x" {
			from = k - 2
		}
		nodes := c.out[k]
		tail := append([]reqToken(nil), c.out[q+1:]...)
		c.out = append(c.out[:from], nodes,
			reqToken{raw: c.out[q].raw, w: "nodes", start: nodes.start, end: nodes.end},
			reqToken{raw: "of", w: "of", start: nodes.start, end: nodes.start},
			count, reqToken{raw: "x", w: "x", start: count.start, end: count.start}, gpu)
		c.out = append(c.out, tail...)
		q = from + 5
	}
	c.nodeShapeShared()
}

// nodeWord names a machine of a cluster after its count ("2 nodes", "2노드").
func nodeWord(w string) bool {
	return w == "nodes" || w == "node" || w == "machines" || w == "servers" || w == "boxes" || w == "hosts" || strings.HasPrefix(w, "노드")
}

// emitGPUAt writes the GPU named at g with the memory size said after it
// (words g to k): "a100 40gb".
func (c *canonizer) emitGPUAt(g, k int) {
	c.emit(c.w(g), g, g+1)
	if k > g {
		c.emit(c.w(k), k, k+1)
	}
}

// koCountGlued reads a native Korean number glued to its counter: "두개로",
// "세대", "네개": the number and the counter with what follows it.
func koCountGlued(w string) (int, string, bool) {
	for word, v := range koNumbers {
		if rest, ok := strings.CutPrefix(w, word); ok && (strings.HasPrefix(rest, "개") || strings.HasPrefix(rest, "대")) {
			return v, rest, true
		}
	}
	return 0, "", false
}

// nodesFirst reads a number of machines said before what each holds:
// "노드 4개(노드당 h100 8장)", "노드 두 대, 노드당 a100 8장" as "4 nodes of"
// before the GPU and its count; i when none is there.
func (c *canonizer) nodesFirst(i int) int {
	if c.w(i) != "노드" && c.w(i) != "서버" {
		return i
	}
	j := i + 1
	n, rest, ok := reqScanInt(c.w(j))
	if !ok {
		if v, ok := koNumbers[c.w(j)]; ok {
			n, rest = v, ""
		} else if v, r, ok := koCountGlued(c.w(j)); ok {
			n, rest = v, r
		} else {
			return i
		}
	}
	j++
	if rest == "" && (strings.HasPrefix(c.w(j), "개") || strings.HasPrefix(c.w(j), "대")) {
		j++
	}
	if c.w(j) == "," {
		j++
	}
	if n < 2 || !strings.HasPrefix(c.w(j), "노드당") && !strings.HasPrefix(c.w(j), "서버당") {
		return i
	}
	c.emit(strconv.Itoa(n), i, j+1)
	c.emit("nodes", i, j+1)
	c.emit("of", i, j+1)
	return j + 1
}

// takeBack reads hardware taken back: "on a Mac? no wait, on a 4090",
// "a100에서, 아 아니 h100에서": the hardware said after the correction
// replaces what was said before it, which is skipped with the words that
// corrected it.
func (c *canonizer) takeBack() {
	hw := func(j int) bool {
		w := strings.TrimRight(c.w(j), "?!.,")
		if stem, _, ok := koStem(w); ok && isHangulWord(w) {
			w = stem
		}
		return c.gpu(w) || appleSilicon(w)
	}
	for k := 1; k < len(c.in); k++ {
		n := correctionWords(c.w(k), c.w(k+1))
		if n == 0 {
			continue
		}
		var before []int
		for j := 0; j < k; j++ {
			if hw(j) {
				before = append(before, j)
			}
		}
		after := slices.ContainsFunc(c.in[k+n:], func(t reqToken) bool { return c.gpu(strings.TrimRight(t.w, "?!.,")) })
		if len(before) == 0 || !after {
			continue
		}
		if c.moved == nil {
			c.moved = map[int]bool{}
		}
		drop := append([]int(nil), before...)
		for _, j := range before {
			for b := j - 1; b >= 0 && b >= j-2 && (c.w(b) == "on" || c.w(b) == "a" || c.w(b) == "an" || c.w(b) == "using" || c.w(b) == "with"); b-- {
				drop = append(drop, b) // "on a Mac": its preposition and article too
			}
		}
		for j := before[len(before)-1] + 1; j < k && strings.Trim(c.w(j), ",.?!") == ""; j++ {
			drop = append(drop, j) // "Mac? no wait": the punctuation between
		}
		for j := k + n; j < len(c.in) && strings.Trim(c.w(j), ",.?!") == ""; j++ {
			drop = append(drop, j)
		}
		slices.Sort(drop)
		for _, j := range slices.Compact(append(drop, seq(k, k+n)...)) {
			c.moved[j] = true
			if strings.Trim(c.w(j), ",.?!") != "" {
				c.skipped = append(c.skipped, strings.TrimRight(c.in[j].raw, ",.?!"))
			}
		}
		return
	}
}

// correctionWords is how many words at a say the speaker corrects
// themself ("no wait", "wait no", "i mean", "actually", "아 아니",
// "아니다"); 0 for none.
func correctionWords(a, b string) int {
	a, b = strings.Trim(a, ",.!?"), strings.Trim(b, ",.!?")
	switch {
	case a == "no" && b == "wait", a == "wait" && b == "no", a == "i" && b == "mean", a == "아" && strings.HasPrefix(b, "아니"), a == "scratch" && b == "that":
		return 2
	case a == "actually", a == "correction", a == "아니다", a == "아니" && b != "면", a == "정정":
		return 1
	}
	return 0
}

// seq is the ints in [a, b).
func seq(a, b int) []int {
	var out []int
	for i := a; i < b; i++ {
		out = append(out, i)
	}
	return out
}
