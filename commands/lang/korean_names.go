package lang

// koNames are the names of models, families and machines as people write
// them in Hangul ("라마", "큐웬", "코버트", "맥북"), and fillers of chat
// Korean that carry no meaning for a plan; koLexicon takes them in.
var koNames = map[string]koEntry{
	"라마": {act: koWord, word: "llama"}, "버트": {act: koWord, word: "bert"}, "베이스": {act: koWord, word: "base"},
	"라지": {act: koWord, word: "large"}, "미스트랄": {act: koWord, word: "mistral"}, "믹스트랄": {act: koWord, word: "mixtral"},
	"딥시크": {act: koWord, word: "deepseek"}, "큐웬": {act: koWord, word: "qwen"}, "큐원": {act: koWord, word: "qwen"},
	"퀜": {act: koWord, word: "qwen"}, "젬마": {act: koWord, word: "gemma"}, "잼마": {act: koWord, word: "gemma"}, "코드라마": {act: koWord, word: "codellama"}, "팔콘": {act: koWord, word: "falcon"}, "다국어": {act: koWord, word: "multilingual"},
	"맥북": {act: koWord, word: "macbook"}, "맥스튜디오": {act: koWord, word: "mac-studio"}, "맥미니": {act: koWord, word: "mac-mini"}, "레즈넷": {act: koWord, word: "resnet"},
	"로버타": {act: koWord, word: "roberta"}, "위스퍼": {act: koWord, word: "whisper"}, "스몰": {act: koWord, word: "small"},
	"미디엄": {act: koWord, word: "medium"}, "모던버트": {act: koWord, word: "modernbert"}, "지피티": {act: koWord, word: "gpt"},
	"엑사원": {act: koWord, word: "exaone"}, "솔라": {act: koWord, word: "solar"}, "딥식": {act: koWord, word: "deepseek"}, "올라마": {act: koWord, word: "ollama"},
	"일렉트라": {act: koWord, word: "electra"}, "코일렉트라": {act: koWord, word: "koelectra"}, "코버트": {act: koWord, word: "kobert"},
	"클루": {act: koWord, word: "klue"}, "코더": {act: koWord, word: "coder"}, "디스틸버트": {act: koWord, word: "distilbert"},
	"데버타": {act: koWord, word: "deberta"}, "클립": {act: koWord, word: "clip"}, "티파이브": {act: koWord, word: "t5"},
	"콘브넥스트": {act: koWord, word: "convnext"}, "타이니": {act: koWord, word: "tiny"}, "이브": {act: koWord, word: "eeve"},
	"디피오": {act: koWord, word: "dpo"}, "라이트": {act: koWord, word: "lite"}, "미니": {act: koWord, word: "mini"}, "파이": {act: koWord, word: "phi"}, "큐웬3": {act: koWord, word: "qwen3"},
	"인스트럭트": {act: koWord, word: "instruct"}, "비전": {act: koWord, word: "vision"}, "라바": {act: koWord, word: "llava"},
	"스카우트": {act: koWord, word: "scout"}, "스카웃": {act: koWord, word: "scout"}, "매버릭": {act: koWord, word: "maverick"},
	"시글립": {act: koWord, word: "siglip"}, "이피션트넷": {act: koWord, word: "efficientnet"}, "에피션트넷": {act: koWord, word: "efficientnet"}, "지티이": {act: koWord, word: "gte"},
	"처리량": {act: koAsk, ask: AskTime},
	"없어서": {act: koSkip}, "그런데": {act: koSkip}, "근데": {act: koSkip}, "그래서": {act: koSkip}, "밖에": {act: koSkip},
}
