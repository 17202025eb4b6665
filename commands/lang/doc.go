// Package lang is gpuplan's request language: the one tokenizer and the
// typed readers behind every command's text — plan requests ("bert-base 10
// epochs of 2.5M samples on h100x2"), time windows ("for 4h", "until fri
// 18:00", "내일 9시부터 3시간") and durations. It reads English and Korean as
// people type them in a team channel and depends on the planner's catalogue
// names only.
//
// The grammar of a plan request, one phrase at a time in any order:
//
//	request  = { phrase | filler } .
//	phrase   = model | workload | amount | shape | precision | option
//	         | hardware | baseline | question .
//	model    = catalogue-name | number ("B"|"M") ["params"|"model"] | hub-id .
//	workload = "pretrain" | "finetune" | "lora" | "qlora" | "inference" | synonym .
//	amount   = number ("epochs"|"samples"|"tokens"|"steps") [ "of" amount ] | dataset .
//	shape    = ("seq"|"batch"|"micro"|"layers"|"hidden"|"heads"|"vocab") number .
//	hardware = ["on"|"using"|"with"] count-and-gpu { "," count-and-gpu }
//	         | ["on"] server-name | "compare" hardware .
//	count-and-gpu = gpu "x" count | count "x" gpu | count gpu | gpu count ("장"|"개"|"대") .
//	baseline = "baseline" number unit "on" count-and-gpu .
//	number   = digits [ "." digits ] [ "k"|"M"|"B"|"T"|"만"|"억"|"천" ] | number-word .
//
// A filler is a question or connecting word ("how long would it take to",
// "can I run", "얼마나 걸려", "돌릴 수 있어", "with", "a", "the"): it is
// skipped and named in the reading, never refused. Hangul particles and
// counters are split from the Latin or digit token they are glued to
// ("server-v에서", "8장으로", "2에폭"). Every refusal is a *UserError naming
// the word it stopped at and, only when a close word exists, a suggestion
// that itself parses.
package lang
