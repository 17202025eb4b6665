package i18n

// koHome is the Korean text for App Home, modals, reminders and nudges,
// the bot's own notices and the digest command's answers. DMs and the Home
// speak politely (~습니다/~세요); buttons and headings are short nouns.
var koHome = map[string]string{
	// Reminders and waiting lists (commands/sweep.go).
	"Your GPUs on %s end in %s":   "%s GPU 예약이 %s 후 끝납니다",
	"`%s`: GPUs %s on %s end %s.": "`%s`: GPU %s (%s) 예약이 %s에 끝납니다.",
	"Extend 1h":                   "1시간 연장",
	"Release now":                 "지금 반납",
	"%d GPU(s) free on %s":        "GPU %d장이 비었습니다 (%s)",
	"The %d GPU(s) you were waiting for on %s are free now.": "기다리시던 GPU %d장이 %s에서 지금 비었습니다.",
	"Reserve for 4h": "4시간 예약",

	// Idle nudges and Keep (commands/nudge.go).
	"Your GPUs on %s look idle": "%s에 잡아 둔 GPU가 놀고 있는 것 같습니다",
	"`%s`: GPUs %s on %s have done no work for %s (measured), and are held until %s. Release them so others can use them?": "`%s`: GPU %s (%s)에서 %s 동안 돌아간 작업이 없습니다(측정값). 예약은 %s까지입니다. 다른 분들이 쓸 수 있게 반납할까요?",
	"Release": "반납",
	"Keep":    "계속 쓰기",
	"Idle = under %d%% utilization with no compute process, by `gpuplan agent`'s nvidia-smi readings.": "유휴 = `gpuplan agent`의 nvidia-smi 측정으로 사용률 %d%% 미만, compute 프로세스 없음.",

	// The plan modal (bot/modal.go).
	"Model": "모델",
	"A catalogue name, a size or an architecture.": "카탈로그 이름, 파라미터 수, 또는 구조(layers/hidden/heads).",
	"Workload": "작업 종류",
	"pretrain, finetune, lora, qlora or inference.": "pretrain, finetune, lora, qlora, inference 중 하나.",
	"Amount of work": "작업량",
	"Epochs over a dataset, tokens, samples or steps.": "데이터셋 에폭 수, 토큰, 샘플 또는 스텝.",
	"Sequence and batch":                      "시퀀스 길이와 배치",
	"seq, global batch, micro-batch per GPU.": "seq, global batch, GPU당 micro-batch.",
	"Precision": "정밀도",
	"fp32, tf32, fp16, bf16, fp8; int8/int4 for inference.": "fp32, tf32, fp16, bf16, fp8 (추론은 int8/int4도 가능).",
	"Hardware": "하드웨어",
	"One configuration, or several separated by commas to compare.": "구성 하나, 또는 비교할 구성 여러 개를 쉼표로 구분.",
	"Options": "옵션",
	"ckpt, flash, zero2, fsdp, adam8bit, tuned, baseline 5.67 h/epoch on 4x v100 …": "ckpt, flash, zero2, fsdp, adam8bit, tuned, baseline 5.67 h/epoch on 4x v100 …",
	"Plan a GPU job": "GPU 작업 계획",
	"Plan":           "계산하기",
	"Cancel":         "취소",

	// The Reserve modal (bot/modal.go).
	"Choose a server":                  "서버 선택",
	"what runs on them":                "어떤 작업인지",
	"Server":                           "서버",
	"The team server to book GPUs on.": "GPU를 예약할 팀 서버.",
	"GPUs":                             "GPU",
	"How many; free ones are picked for you.": "몇 장 쓸지. 비어 있는 GPU로 알아서 골라 드립니다.",
	"For how long": "사용 시간",
	"e.g. 4h, 90m, 1d12h. The server's maximum applies.": "예: 4h, 90m, 1d12h. 서버별 최대 시간이 적용됩니다.",
	"Start": "시작",
	"Leave empty to start now. Times are in your Slack time zone.": "비워 두면 지금 시작합니다. 예: tomorrow 9:00 (Slack 시간대 기준).",
	"Note":                                   "메모",
	"Shown with the reservation.":            "예약과 함께 표시됩니다.",
	"Reserve GPUs":                           "GPU 예약",
	"Reserve":                                "예약",
	"Choose a server.":                       "서버를 선택해 주세요.",
	"A whole number of GPUs, 1 or more.":     "GPU 수는 1 이상의 정수로 적어 주세요.",
	"That is more GPUs than any server has.": "그만큼 GPU가 있는 서버는 없습니다.",
	"%s — e.g. 4h, 90m or 1d12h.":            "%s — 예: 4h, 90m, 1d12h.",
	"Write the start without quotes, e.g. tomorrow 9:00.": "시작 시각은 따옴표 없이 적어 주세요. 예: tomorrow 9:00.",
	"Keep the note under %d characters.":                  "메모는 %d자 이내로 적어 주세요.",
	"Something is wrong here.":                            "이 칸을 확인해 주세요.",
}
