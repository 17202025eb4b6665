package bot

import (
	"encoding/json"

	"github.com/gpuplan/gpuplan/commands"
	"github.com/slack-go/slack"
)

// fieldLabels are the plan modal's inputs, in commands.FormFields order.
var fieldLabels = map[string]struct{ label, hint, placeholder string }{
	"model":     {"Model", "A catalogue name, a size or an architecture.", "llama3-8b · 7b params · layers 24 hidden 2048 heads 16"},
	"workload":  {"Workload", "pretrain, finetune, lora, qlora or inference.", "lora"},
	"amount":    {"Amount of work", "Epochs over a dataset, tokens, samples or steps.", "3 epochs of 50k samples"},
	"shape":     {"Sequence and batch", "seq, global batch, micro-batch per GPU.", "seq 2048 batch 64"},
	"precision": {"Precision", "fp32, tf32, fp16, bf16, fp8; int8/int4 for inference.", "bf16"},
	"hardware":  {"Hardware", "One configuration, or several separated by commas to compare.", "2x h100 · 4x h200, 4x a100"},
	"options":   {"Options", "ckpt, flash, zero2, fsdp, adam8bit, tuned, baseline 5.67 h/epoch on 4x v100 …", "ckpt tuned"},
}

// planModal builds the Adjust/plan modal with form's fields prefilled.
func planModal(form commands.PlanForm, meta modalMeta) slack.ModalViewRequest {
	var blocks []slack.Block
	for _, name := range commands.FormFields {
		fl := fieldLabels[name]
		input := slack.NewPlainTextInputBlockElement(plainText(fl.placeholder, 150), modalInputID)
		input.InitialValue = form.Get(name)
		block := slack.NewInputBlock(name, plainText(fl.label, 2000), plainText(fl.hint, 2000), input)
		block.Optional = name != "model"
		blocks = append(blocks, block)
	}
	md, _ := json.Marshal(meta)
	return slack.ModalViewRequest{
		Type:            slack.VTModal,
		CallbackID:      planModalID,
		Title:           plainText("Plan a GPU job", 24),
		Submit:          plainText("Plan", 24),
		Close:           plainText("Cancel", 24),
		Blocks:          slack.Blocks{BlockSet: blocks},
		PrivateMetadata: string(md),
	}
}

// formFromState reads the submitted modal back into a form.
func formFromState(st *slack.ViewState) commands.PlanForm {
	var f commands.PlanForm
	if st == nil {
		return f
	}
	for _, name := range commands.FormFields {
		if v, ok := st.Values[name][modalInputID]; ok {
			f.Set(name, v.Value)
		}
	}
	return f
}
