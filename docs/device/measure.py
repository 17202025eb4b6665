"""Measure eager-PyTorch training and inference steps on one GPU.

Run on the device machine (no network: every model is built from its
published config with random weights, and inputs are random tensors on
the GPU, so no data loader is timed). Each line of $OUT/results.jsonl is
one measurement; docs/device/README.md says how the figures became
back-test rows.

Timing: WARM steps, then ITERS steps between two torch.cuda.synchronize()
calls; the figure is the mean. Peak memory is torch.cuda.max_memory_allocated
after reset_peak_memory_stats() before the model is built, so it counts
weights, gradients, optimizer state and activations (no allocator headroom).
"""
import gc
import json
import os
import subprocess
import sys
import time
import traceback

import torch

OUT = os.environ.get("OUT", "/tmp/out")
os.makedirs(OUT, exist_ok=True)
RES = open(os.path.join(OUT, "results.jsonl"), "a")
T0 = time.time()
BUDGET = float(os.environ.get("BUDGET_S", "330"))
WARM, ITERS = 3, 10


def emit(d):
    line = json.dumps(d)
    print(line, flush=True)
    RES.write(line + "\n")
    RES.flush()


def fresh():
    gc.collect()
    torch.cuda.empty_cache()
    torch.cuda.reset_peak_memory_stats()


def mib(x):
    return round(x / 2**20, 1)


def peaks():
    return {"peak_alloc_mib": mib(torch.cuda.max_memory_allocated()),
            "peak_reserved_mib": mib(torch.cuda.max_memory_reserved())}


def timed(step, warm=WARM, iters=ITERS):
    for _ in range(warm):
        step()
    torch.cuda.synchronize()
    t = time.perf_counter()
    for _ in range(iters):
        step()
    torch.cuda.synchronize()
    return (time.perf_counter() - t) / iters


def train_step(model, opt, batch_fn, amp):
    def step():
        with torch.autocast("cuda", dtype=torch.bfloat16, enabled=amp):
            loss = model(**batch_fn()).loss if hasattr(model, "config") else batch_fn()(model)
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
    return step


def bert_cfg(large):
    from transformers import BertConfig
    if large:
        return BertConfig(hidden_size=1024, num_hidden_layers=24, num_attention_heads=16,
                          intermediate_size=4096, vocab_size=30522, num_labels=2)
    return BertConfig(hidden_size=768, num_hidden_layers=12, num_attention_heads=12,
                      intermediate_size=3072, vocab_size=30522, num_labels=2)


def llama_cfg(size):
    from transformers import LlamaConfig
    if size == "1b":  # meta-llama/Llama-3.2-1B config.json
        return LlamaConfig(hidden_size=2048, intermediate_size=8192, num_hidden_layers=16,
                           num_attention_heads=32, num_key_value_heads=8, head_dim=64,
                           vocab_size=128256, tie_word_embeddings=True, rope_theta=500000.0,
                           max_position_embeddings=131072)
    # meta-llama/Llama-3.1-8B config.json
    return LlamaConfig(hidden_size=4096, intermediate_size=14336, num_hidden_layers=32,
                       num_attention_heads=32, num_key_value_heads=8, head_dim=128,
                       vocab_size=128256, tie_word_embeddings=False, rope_theta=500000.0,
                       max_position_embeddings=131072)


def build(cls, cfg, dtype):
    old = torch.get_default_dtype()
    torch.set_default_dtype(dtype)
    try:
        with torch.device("cuda"):
            m = cls(cfg)
    finally:
        torch.set_default_dtype(old)
    return m


def bert_finetune(large, seq, bs):
    from transformers import BertForSequenceClassification
    fresh()
    cfg = bert_cfg(large)
    m = build(BertForSequenceClassification, cfg, torch.float32).train()
    opt = torch.optim.AdamW(m.parameters(), lr=1e-5, fused=True)
    ids = torch.randint(0, cfg.vocab_size, (bs, seq), device="cuda")
    lab = torch.randint(0, 2, (bs,), device="cuda")
    s = timed(train_step(m, opt, lambda: {"input_ids": ids, "labels": lab}, True))
    r = {"name": f"bert-{'large' if large else 'base'} finetune seq {seq} micro {bs} bf16 amp adamw",
         "samples_per_s": round(bs / s, 1), "step_s": round(s, 5)} | peaks()
    del m, opt
    return r


def llama_finetune(size, seq, bs, lora=False, ckpt=False):
    from transformers import LlamaForCausalLM
    fresh()
    cfg = llama_cfg(size)
    m = build(LlamaForCausalLM, cfg, torch.bfloat16 if lora else torch.float32)
    if ckpt:
        m.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    if lora:
        from peft import LoraConfig, get_peft_model
        m.enable_input_require_grads()
        m = get_peft_model(m, LoraConfig(r=16, lora_alpha=32, lora_dropout=0.0, target_modules="all-linear"))
    m.train()
    params = [p for p in m.parameters() if p.requires_grad]
    ntrain = sum(p.numel() for p in params)
    opt = torch.optim.AdamW(params, lr=1e-5, fused=True)
    ids = torch.randint(0, cfg.vocab_size, (bs, seq), device="cuda")
    s = timed(train_step(m, opt, lambda: {"input_ids": ids, "labels": ids}, True))
    r = {"attn": getattr(cfg, "_attn_implementation", None), "name": f"llama-3 {size} {'lora r16 all-linear bf16 base' if lora else 'full finetune fp32 master'} seq {seq} micro {bs}{' ckpt' if ckpt else ''} bf16 amp adamw",
         "tokens_per_s": round(bs * seq / s, 1), "step_s": round(s, 5), "trainable": ntrain} | peaks()
    del m, opt
    return r


def resnet_train(bs):
    import torchvision
    fresh()
    m = torchvision.models.resnet50().cuda().to(memory_format=torch.channels_last).train()
    opt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)
    x = torch.randn(bs, 3, 224, 224, device="cuda").to(memory_format=torch.channels_last)
    y = torch.randint(0, 1000, (bs,), device="cuda")
    lossf = torch.nn.CrossEntropyLoss()
    s = timed(train_step(m, opt, lambda: (lambda mm: lossf(mm(x), y)), True))
    r = {"name": f"resnet50 train micro {bs} bf16 amp sgd channels_last", "samples_per_s": round(bs / s, 1),
         "step_s": round(s, 5)} | peaks()
    del m, opt
    return r


def count_kernels(fn):
    from torch.profiler import profile, ProfilerActivity
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        fn()
        torch.cuda.synchronize()
    return sum(1 for e in prof.events() if str(e.device_type).endswith("CUDA"))


def infer(name, m, x, bs, kernels=False):
    fresh_peak = torch.cuda.max_memory_allocated()
    with torch.inference_mode():
        fn = (lambda: m(**x)) if isinstance(x, dict) else (lambda: m(x))
        s = timed(fn, warm=5, iters=20)
        r = {"name": name, "batch": bs, "samples_per_s": round(bs / s, 1), "latency_ms": round(s * 1e3, 3)} | peaks()
        if kernels:
            r["kernels_per_forward"] = count_kernels(fn)
    return r


def vision_infer():
    import torchvision
    import timm
    out = []
    for label, mk in [("resnet50", lambda: torchvision.models.resnet50()),
                      ("vit-base-patch16-224", lambda: timm.create_model("vit_base_patch16_224", pretrained=False)),
                      ("vit-large-patch16-224", lambda: timm.create_model("vit_large_patch16_224", pretrained=False))]:
        fresh()
        m = mk().cuda().half().eval().to(memory_format=torch.channels_last)
        for bs in (1, 8, 64, 256):
            x = torch.randn(bs, 3, 224, 224, device="cuda", dtype=torch.half).to(memory_format=torch.channels_last)
            out.append(infer(f"{label} inference fp16 eager", m, x, bs, kernels=(bs == 1)))
        del m
    return out


def bert_infer():
    from transformers import BertModel
    out = []
    for large in (False, True):
        fresh()
        cfg = bert_cfg(large)
        m = build(BertModel, cfg, torch.float16).eval()
        for seq, bs in ((128, 1), (128, 64), (384, 1), (384, 32)):
            ids = torch.randint(0, cfg.vocab_size, (bs, seq), device="cuda")
            out.append(infer(f"bert-{'large' if large else 'base'} inference seq {seq} fp16 eager sdpa", m,
                             {"input_ids": ids}, bs, kernels=(bs == 1 and seq == 128)))
        del m
    return out


def llama_decode(size, batches, ctx=512, gen=128):
    from transformers import LlamaForCausalLM
    fresh()
    cfg = llama_cfg(size)
    m = build(LlamaForCausalLM, cfg, torch.bfloat16).eval()
    out = []
    for bs in batches:
        ids = torch.randint(0, cfg.vocab_size, (bs, ctx), device="cuda")
        kw = dict(do_sample=False, eos_token_id=None, pad_token_id=0)

        def gen_n(n):
            torch.cuda.synchronize()
            t = time.perf_counter()
            with torch.inference_mode():
                o = m.generate(ids, max_new_tokens=n, min_new_tokens=n, **kw)
            torch.cuda.synchronize()
            assert o.shape[1] == ctx + n, o.shape
            return time.perf_counter() - t
        gen_n(4)
        pre = min(gen_n(1) for _ in range(3))
        full = gen_n(gen)
        dec = (full - pre) / (gen - 1)
        out.append({"name": f"llama-3 {size} inference hf generate bf16 sdpa ctx {ctx} gen {gen}", "batch": bs,
                    "prefill_s": round(pre, 4), "decode_ms_per_token": round(dec * 1e3, 3),
                    "decode_tokens_per_s": round(bs / dec, 1), "end_to_end_tokens_per_s": round(bs * gen / full, 1)} | peaks())
    del m
    return out


def gpu_info():
    q = "name,clocks.max.sm,clocks.max.mem,power.limit,driver_version,memory.total"
    try:
        smi = subprocess.run(["nvidia-smi", f"--query-gpu={q}", "--format=csv,noheader"], capture_output=True, text=True).stdout.strip()
    except Exception as e:  # noqa: BLE001
        smi = repr(e)
    import transformers
    vers = {"torch": torch.__version__, "cuda": torch.version.cuda, "transformers": transformers.__version__}
    for mod in ("peft", "timm", "torchvision"):
        try:
            vers[mod] = __import__(mod).__version__
        except Exception as e:  # noqa: BLE001
            vers[mod] = repr(e)
    a = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
    s = timed(lambda: a @ a, warm=3, iters=10)
    return {"name": "info", "nvidia_smi": smi, "versions": vers, "bf16_matmul_tflops": round(2 * 8192**3 / s / 1e12, 1)}


JOBS = [
    ("info", gpu_info),
    ("lora8b", lambda: llama_finetune("8b", 2048, 2, lora=True, ckpt=True)),
    ("lora8b_nockpt", lambda: llama_finetune("8b", 2048, 2, lora=True, ckpt=False)),
    ("ft1b", lambda: llama_finetune("1b", 2048, 4)),
    ("ft1b_ckpt", lambda: llama_finetune("1b", 2048, 8, ckpt=True)),
    ("bertb", lambda: bert_finetune(False, 128, 32)),
    ("bertl512", lambda: bert_finetune(True, 512, 8)),
    ("resnet", lambda: resnet_train(256)),
    ("vision_infer", vision_infer),
    ("bert_infer", bert_infer),
    ("dec8b", lambda: llama_decode("8b", (1, 16))),
    ("dec1b", lambda: llama_decode("1b", (1,))),
]

if __name__ == "__main__":
    only = set(sys.argv[1:])
    for key, fn in JOBS:
        if only and key not in only:
            continue
        if time.time() - T0 > BUDGET:
            emit({"name": key, "skipped": "time budget"})
            continue
        t = time.time()
        try:
            r = fn()
            for x in (r if isinstance(r, list) else [r]):
                x["job"] = key
                emit(x)
        except Exception:  # noqa: BLE001
            emit({"name": key, "error": traceback.format_exc()[-1500:]})
        emit({"name": key, "wall_s": round(time.time() - t, 1)})
