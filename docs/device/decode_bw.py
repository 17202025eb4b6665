"""How much of the HBM bandwidth a decode step's weight reads reach.

Streams Llama 3.1 8B's linear weights (32 layers of q, k, v, o, gate, up,
down, and the LM head: 15.0 GB in bf16) through x @ W.T at batch 1-256, as a
decode step does, replayed from a CUDA graph so the host adds nothing. No
attention and no KV cache: this is the weight-streaming part an engine's
decode step cannot beat. Prints JSON lines and writes $OUT/decode_bw.jsonl.
"""
import json
import os

import torch

OUT = os.environ.get("OUT", "/tmp/out")
os.makedirs(OUT, exist_ok=True)
RES = open(os.path.join(OUT, "decode_bw.jsonl"), "a")
h, kv, f, V, L = 4096, 1024, 14336, 128256, 32
shapes = [(h, h), (kv, h), (kv, h), (h, h), (f, h), (f, h), (h, f)] * L + [(V, h)]
ws = [torch.randn(o, i, device="cuda", dtype=torch.bfloat16) for o, i in shapes]
nbytes = sum(w.numel() * 2 for w in ws)
name = torch.cuda.get_device_name()
for b in (1, 2, 4, 8, 16, 32, 64, 128, 256):
    xs = {i: torch.randn(b, i, device="cuda", dtype=torch.bfloat16) for i in (h, f)}

    def step():
        for w in ws:
            torch.matmul(xs[w.shape[1]], w.t())
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(3):
            step()
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        step()
    for _ in range(3):
        g.replay()
    st, en = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    st.record()
    for _ in range(20):
        g.replay()
    en.record()
    torch.cuda.synchronize()
    t = st.elapsed_time(en) / 20 / 1e3
    flops = 2 * b * sum(o * i for o, i in shapes)
    d = {"gpu": name, "batch": b, "step_ms": round(t * 1e3, 3), "weights_gb": round(nbytes / 1e9, 2),
         "bandwidth_tb_s": round(nbytes / t / 1e12, 3), "tflops": round(flops / t / 1e12, 1)}
    print(json.dumps(d), flush=True)
    RES.write(json.dumps(d) + "\n")
