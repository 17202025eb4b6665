// Package lang is gpuplan's request language: one tokenizer and the typed
// readers behind every command's text — plan requests ("bert-base 10
// epochs of 2.5M samples on h100x2"), questions ("how many H100s to finish
// by friday?", "qlora로 llama-2-70b a100 1장에서 돌릴 수 있어?"), commands
// written as sentences ("server-a 2장 내일 오전 9시부터 3시간 예약"), time
// windows ("for 4h", "until fri 18:00") and durations. It reads English and
// Korean as ML engineers type them in a team channel, and depends on the
// planner's catalogue names only.
//
// Reading happens in three steps over one token stream:
//
//  1. The tokenizer (tokens.go) normalises chat text and cuts words; a
//     Hangul run glued to a Latin or digit word is a word of its own
//     ("server-v에서" → server-v 에서, "8장으로" → 8 장으로).
//
//  2. The reading pass (canon.go, korean.go, datasets.go) puts people's
//     words into canonical ones, keeping each word's span so errors quote
//     what was typed: question and filler words are skipped and listed;
//     number words and scales become numbers; Korean stems become keywords;
//     a count with a counter joins its GPU; team servers, datasets and
//     model sizes become one word each; a measured run said without the
//     keyword gets it.
//
//  3. The typed readers (parser.go, numbers.go, options.go, models.go,
//     hardware.go) read the canonical words by the grammar below.
//
// The grammar of a plan request, one phrase at a time in any order:
//
//	request   = { phrase | filler } .
//	phrase    = model | workload | amount | shape | precision | option
//	          | hardware | baseline | question | deadline .
//	model     = catalogue-name [("-instruct"|"-chat"|"-it"|"-hf")] | family {part} size
//	          | number ("B"|"M") ["params"|"model"] | "layers" n "hidden" n ["heads" n] … .
//	          (a family with a size the catalogue lacks is planned at that size)
//	workload  = "pretrain" | "finetune" | "lora" | "qlora" | "inference"
//	          | "from scratch" | "fine tune" | "serve" | 사전학습 | 파인튜닝 | 추론 | … .
//	amount    = number ("epochs"|"samples"|"tokens"|"steps") ["of" amount] | dataset
//	          | number "hours of audio" | 음성 number 시간 .          (30-second samples)
//	shape     = ("seq"|"batch"|"micro"|"rank"|"gen"|…) number .
//	hardware  = ["on"|"using"|"with"] gpu-count { ("," | "vs" | "or") gpu-count }
//	          | ["on"] server [count] | "compare" hardware .
//	gpu-count = gpu ["x"] count | count ["x"] gpu | gpu count ("장"|"개"|"대")
//	          | count ("gpus"|"cards") gpu | "N nodes of" gpu-count .
//	baseline  = ["baseline"|"took"] number unit ["per epoch"] "on" gpu-count
//	          | gpu-count (number "시간" ["에폭당"] | 초당 number 토큰) ("걸렸는데"|"나왔는데") .
//	question  = "how long" | "how many" | "will it fit" | "which gpu" | "which of our servers"
//	          | "how much" | "how much vram" | "tokens per second" | "max batch size"
//	          | "cheapest" | "fastest" | "max context" | 최대 컨텍스트 | 얼마나 걸려 | 몇 장 | 돌릴 수 있어 | 어떤 GPU
//	          | 우리 서버 중 | 비용 | 메모리 얼마나 | 초당 토큰 몇 개 | 최대 배치 | 제일 싸게 | … .
//	budget    = ["budget"|"under"|"within"] "$" number ["budget"] .
//	open      = ["on"|"with"] count ("gpus"|"gpu"|"cards") | "gpu" count ("장"|"개")   (no GPU named: the count is kept, the GPU asked) .
//	hourly    = ["under"|"max"|"at"] "$" number ("/hr"|"/h"|"/gpu-hour"|"an hour"|"per hour"|"per gpu hour")
//	          | 시간당 ("$" number | number "달러") ["이하"]   (a ceiling on one GPU's hourly price) .
//	serving   = ("input"|"prompt") n | "out" n | n ("concurrent"|"users") | 입력 n | 출력 n | n 명 .
//	deadline  = ("in"|"within"|"by") (number unit | day) | (number unit | day) ("안에"|"까지") .
//	number    = digits ["." digits] ["k"|"M"|"B"|"T"] | number ("만"|"억"|"천"|"million"|…)
//	          | "one" … "twelve" | "a single" | "a pair of" | "dozen" | 한 | 두 | 세 | … .
//	gpu       = catalogue-gpu | [count] number "gb" ("card"|"gpu")   (the cheapest card of that size)
//
// A word outside the grammar is skipped and named in the reading ("Read
// as: … (skipped: lol)") unless it is close to a word the language knows:
// a slip one edit from a keyword is read as it and named ("finetnue →
// finetune"); a word one or two edits from a model or GPU name is refused
// with the name as a suggestion. Every suggestion ("try: gpuplan plan …")
// is held to a property test: it parses on its own, in one step, and only
// fixes or drops the user's words; when no such line exists, an example is
// shown marked "e.g.", never passed off as the user's request.
// A request is refused only when it contradicts itself ("two models:
// `bert-base` and `bert-large` — which one?") or names nothing to plan.
//
// The commands' arguments have typed readers too (args.go, schedule.go,
// when.go); the commands package only calls them and acts on the values:
//
//	reserve  = (count ["gpus"] | ("gpus"|"gpu"|"ids") ids) "on" server window [note] .   ParseReserve
//	wait     = count ["gpus"] "on" server ["for" duration] .                             ParseWait (24h unless said)
//	release  = (id | server | "all") ["--force"] .                                       ParseRelease
//	extend   = [id | server] amount ["--force"] .                                        ParseExtend
//	amount   = ["by"|"for"] duration | ("until"|"till"|"to"|"by") point .
//	digest   = [channel] ( "list" | ("now"|"preview") {period | server}
//	         | ("off"|"stop"|"remove") | schedule ) .                                   ParseDigest
//	schedule = ("daily" | "every day") clock [tz] | "weekly" weekday clock [tz]
//	         | "cron" `"` spec `"` {tz | "daily" | "weekly"} .                          ParseSchedule
//	window   = { ["for"] duration | ["from"|"starting"|"at"] point | ("until"|"till"|"to") point } .  ParseWindow
//	point    = day [clock] | clock [day] .        day = "today" | "tomorrow" | weekday | date .
//	duration = number unit {number unit} .        "2h", "90m", "1d12h", "2 hours", "an hour"
//	count    = 1…999 ["x"|"gpus"] .   ids = id-range {"," id-range} .   note = ["note"] quoted | "note" {word} .
//	id       = server "-" suffix .                "server-h-12k3x"
//	channel  = "<#" C… ["|" name] ">" | ["#"] C… .   tz = an IANA name ("Asia/Seoul") .
//
// A server is resolved by the caller's Servers (the inventory: "h",
// "h200" and "server-h" are one server). An extend that names a server,
// or no reservation at all, means the user's only reservation there (or
// anywhere); the command asks which when there are several. Its point is
// the first such time after the reservation starts, or after now once it
// has. Mistakes are *UserError with the Field they are in (server, count,
// ids, note, start, end, duration).
//
// Commands written as sentences (command.go) are recognised by their verb
// anywhere in the text (reserve/book/grab/예약/잡아, release/반납,
// extend/연장, wait/대기/…면 알려줘, status/who's using/현황) and restated
// in the command's canonical words above, Korean times included ("내일
// 오전 9시부터 3시간" → "from tomorrow 9:00 for 3h", "server-a 2시간 연장"
// → "server-a by 2h", "저녁 8시까지 연장" → "until 20:00"), so each
// command keeps one grammar.
package lang
