"""A synthetic dataset in the exact format of `npm run dump` (training/data/<name>/), for developing the training
and runtime code before real features exist. Never ship a model trained on it.

    /usr/bin/python3 training/make_synthetic.py --out training/data/synthetic --pages 60
"""

import argparse
import hashlib
import json
import os

import numpy as np

ap = argparse.ArgumentParser()
ap.add_argument("--out", default="training/data/synthetic")
ap.add_argument("--pages", type=int, default=60)
ap.add_argument("--unary", type=int, default=20)
ap.add_argument("--edge", type=int, default=6)
ap.add_argument("--set", default="pith")
args = ap.parse_args()

rng = np.random.default_rng(7)
unary, edge, labels, pages = [], [], [], []
bo = eo = 0
for i in range(args.pages):
    n = int(rng.integers(1, 120)) if i % 10 else int(rng.integers(1, 4))
    y = np.zeros(n, dtype=np.uint8)  # a content run in the middle, like a real page
    a, b = sorted(rng.integers(0, n + 1, size=2))
    y[a:b] = 1
    u = rng.normal(size=(n, args.unary)).astype(np.float32)
    u[:, 0] += 1.5 * y  # an informative feature
    u[:, 1] = u[:, 1] * 50 + 100  # a badly scaled one
    u[:, 2] = 1.0  # a constant one (std 0)
    e = rng.normal(size=(max(n - 1, 0), args.edge)).astype(np.float32)
    if n > 1:
        e[:, 0] += 2.0 * (y[1:] != y[:-1])
    unary.append(u); edge.append(e); labels.append(y)
    split = "val" if i % 4 == 0 else "train"
    pages.append({"id": f"{i:04d}", "domain": f"d{i % 17}.example", "pageType": "article", "split": split,
                  "blockOffset": bo, "nBlocks": n, "edgeOffset": eo, "coverage": 1.0})
    bo += n; eo += max(n - 1, 0)
os.makedirs(args.out, exist_ok=True)
np.concatenate(unary).astype("<f4").tofile(os.path.join(args.out, "unary.f32"))
np.concatenate(edge).astype("<f4").tofile(os.path.join(args.out, "edge.f32"))
np.concatenate(labels).tofile(os.path.join(args.out, "labels.u8"))
digest = hashlib.sha256(b"".join(open(os.path.join(args.out, f), "rb").read() for f in ("unary.f32", "edge.f32", "labels.u8"))).hexdigest()
index = {"featureSet": args.set, "featureSchema": "synthetic-1", "schemaHash": "synthetic",
         "unaryFeatureNames": [f"u{i}" for i in range(args.unary)], "edgeFeatureNames": [f"e{i}" for i in range(args.edge)],
         "dataHash": digest, "pages": pages}
with open(os.path.join(args.out, "index.json"), "w") as f:
    json.dump(index, f, indent=1)
print(f"wrote {args.out}: {bo} blocks, {eo} edges, {len(pages)} pages")
