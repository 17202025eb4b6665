"""Count what one eager forward (and one training step) issues from the host.

For each model at batch 1: CUDA kernels, ATen operators the dispatcher ran
(all, and top-level ones: those called from Python), nn.Module calls, and the
forward's wall time. For one training step (forward, backward, fused AdamW or
SGD): CUDA kernels. Run on the device machine; prints JSON lines and writes
$OUT/ops.jsonl. docs/device/README.md says what came of it.
"""
import json
import os
import time

import torch
from torch.profiler import ProfilerActivity, profile

OUT = os.environ.get("OUT", "/tmp/out")
os.makedirs(OUT, exist_ok=True)
RES = open(os.path.join(OUT, "ops.jsonl"), "a")


def emit(d):
    print(json.dumps(d), flush=True)
    RES.write(json.dumps(d) + "\n")
    RES.flush()


def models():
    import timm
    import torchvision
    from transformers import BertConfig, BertForSequenceClassification, BertModel
    bb = BertConfig(hidden_size=768, num_hidden_layers=12, num_attention_heads=12, intermediate_size=3072, num_labels=2)
    bl = BertConfig(hidden_size=1024, num_hidden_layers=24, num_attention_heads=16, intermediate_size=4096, num_labels=2)
    img = lambda b: torch.randn(b, 3, 224, 224, device="cuda")
    ids = lambda b, s: {"input_ids": torch.randint(0, 30522, (b, s), device="cuda")}
    return [
        ("resnet50", lambda: torchvision.models.resnet50(), img, 50),
        ("vit-base-patch16-224", lambda: timm.create_model("vit_base_patch16_224", pretrained=False), img, 12),
        ("vit-large-patch16-224", lambda: timm.create_model("vit_large_patch16_224", pretrained=False), img, 24),
        ("bert-base", lambda: BertModel(bb), lambda b: ids(b, 128), 12),
        ("bert-large", lambda: BertModel(bl), lambda b: ids(b, 128), 24),
        ("bert-base-cls", lambda: BertForSequenceClassification(bb), lambda b: ids(b, 128), 12),
    ]


def call(m, x):
    return m(**x) if isinstance(x, dict) else m(x)


def count(fn):
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        fn()
        torch.cuda.synchronize()
    ev = prof.events()
    kernels = sum(1 for e in ev if str(e.device_type).endswith("CUDA"))
    cpu = [e for e in ev if not str(e.device_type).endswith("CUDA") and e.name.startswith("aten::")]
    top = sum(1 for e in cpu if e.cpu_parent is None or not e.cpu_parent.name.startswith("aten::"))
    return kernels, len(cpu), top


for name, mk, inp, layers in models():
    m = mk().cuda().half().eval()
    calls = [0]
    hooks = [mod.register_forward_pre_hook(lambda *_: calls.__setitem__(0, calls[0] + 1)) for mod in m.modules()]
    x = inp(1)
    if not isinstance(x, dict):
        x = x.half()
    with torch.inference_mode():
        for _ in range(5):
            call(m, x)
        calls[0] = 0
        call(m, x)
        modules = calls[0]
        for h in hooks:
            h.remove()
        torch.cuda.synchronize()
        t = time.perf_counter()
        for _ in range(50):
            call(m, x)
        torch.cuda.synchronize()
        ms = (time.perf_counter() - t) / 50 * 1e3
        k, ops, top = count(lambda: call(m, x))
    emit({"model": name, "layers": layers, "batch": 1, "forward_ms": round(ms, 3), "kernels": k, "aten_ops": ops,
          "aten_top_level": top, "module_calls": modules})
    del m
    torch.cuda.empty_cache()

# one training step: forward, backward, optimizer
for name, mk, inp, layers in models():
    if name in ("bert-base", "bert-large"):
        continue
    m = mk().cuda().train()
    opt = (torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9) if name == "resnet50"
           else torch.optim.AdamW(m.parameters(), lr=1e-5, fused=True))
    b = 32
    x = inp(b)
    lab = torch.randint(0, 2, (b,), device="cuda")

    def step():
        with torch.autocast("cuda", dtype=torch.bfloat16):
            out = call(m, x)
            logits = out.logits if hasattr(out, "logits") else out
            loss = torch.nn.functional.cross_entropy(logits.float(), lab)
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
    for _ in range(3):
        step()
    torch.cuda.synchronize()
    t = time.perf_counter()
    for _ in range(10):
        step()
    torch.cuda.synchronize()
    ms = (time.perf_counter() - t) / 10 * 1e3
    k, ops, top = count(step)
    emit({"model": name, "layers": layers, "train_batch": b, "step_ms": round(ms, 3), "train_kernels": k,
          "train_aten_ops": ops, "train_aten_top_level": top})
    del m, opt
    torch.cuda.empty_cache()
