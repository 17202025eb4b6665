package lang

import "strings"

// Model families the planner has no path for, named so the refusal says
// what they are and what to plan instead.

// diffusionWords name image-generation models ("sdxl", "stable diffusion",
// "flux", "스테이블 디퓨전"): their time is a denoising loop of tens of
// UNet or DiT passes per image, which the planner has no path for.
var diffusionWords = []string{"sdxl", "sd1.5", "sd15", "sd-1.5", "sd2", "sd3", "sd-xl", "stable-diffusion", "stablediffusion", "diffusion", "flux", "flux.1",
	"dreambooth", "controlnet", "comfyui", "automatic1111", "a1111", "스테이블", "디퓨전", "플럭스", "드림부스"}

// detectionWords name object-detection and segmentation models ("yolov8",
// "yolo11", "detr", "mask r-cnn", "욜로"): a backbone plus a detection head
// and neck at 640 px or more, whose activation counts no card publishes,
// so the CNN path (classifiers at 224 px) would guess them.
var detectionWords = []string{"yolo", "yolov5", "yolov7", "yolov8", "yolov9", "yolov10", "yolo11", "yolov11", "yolox", "detr", "rt-detr",
	"rtdetr", "faster-rcnn", "mask-rcnn", "maskrcnn", "fasterrcnn", "retinanet", "efficientdet", "sam", "sam2", "욜로"}

// detectionHint is what to plan for a detector instead.
const detectionHint = "for a rough bound, plan its backbone at its image count: `gpuplan plan resnet-50 100 epochs of coco on a 4090` (a detector at 640 px does several times the work)"

// familyRefusal is the message for words that name a model family the
// planner has no path for — a diffusion model, an object detector: said
// plainly, with what the planner does plan; nil for any other. named says
// raw is the model's own words, quoted whole; else raw is the whole
// request and the family's words are quoted.
func familyRefusal(raw string, named bool) error {
	found := func(words []string) []string {
		var out []string
		for _, f := range strings.Fields(raw) {
			w := strings.ToLower(strings.Trim(f, ",.?!()"))
			for _, d := range words {
				if w == d || strings.HasPrefix(w, d) && len(d) >= 4 {
					out = append(out, f)
					break
				}
			}
		}
		return out
	}
	quote := func(words []string) string {
		if named {
			return raw
		}
		return strings.Join(words, " ")
	}
	if d := found(diffusionWords); len(d) > 0 {
		return said(en.Tf("`%s` is an image-generation (diffusion) model: gpuplan plans language and speech models (LLMs, BERT, Whisper), ViTs and CNNs, and has no path yet for a diffusion model's denoising steps", reqShort(quote(d))),
			&UserError{Hint: "try a catalogue name (`gpuplan models` lists them)"})
	}
	if d := found(detectionWords); len(d) > 0 {
		return said(en.Tf("`%s` is an object-detection model: gpuplan plans CNN and ViT classifiers (ResNet, ConvNeXt, ViT), not a detector's head and neck at its larger images, whose activations no model card gives", reqShort(quote(d))),
			&UserError{Hint: detectionHint})
	}
	return nil
}

// familyNamed is the refusal for a request whose model is of a family
// the planner has no path for (a diffusion model, a detector): named in
// the words skipped ("sdxl 학습 4090", "yolov8 학습") or anywhere in the
// text ("스테이블 디퓨전 학습 3090", words the lexicon read past).
func (p *reqParser) familyNamed() error {
	if err := familyRefusal(strings.Join(p.skipped, " "), true); err != nil {
		return err
	}
	return familyRefusal(p.text, false)
}

// NamesUnsupportedFamily reports whether text names a model family the
// planner has no path for (a diffusion model, an object detector): its
// refusal says so, and a first word such as "Stable" is no mistyped
// command.
func NamesUnsupportedFamily(text string) bool { return familyRefusal(text, false) != nil }
