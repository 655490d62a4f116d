"""Ablation: does the main-content container help the unary block net?

    npx tsx training/container-dataset.ts --block-columns        # -> training/data/pith/container.f32
    /usr/bin/python3 training/container_ablation.py --arm without  # the dump as it is
    /usr/bin/python3 training/container_ablation.py --arm with     # + inside_container, container_score
    (--seed N for replicates: <arm>-seedN.json)

Trains the unary net with training/train.py's own loop (train_net, same config and seed) on the block dump,
with or without the two container columns appended, and writes the best validation block metrics to
training/runs/container-ablation/<arm>.json. Only the unary net: block F1 is what it is selected on.
The container columns come from the shipped models/container.json, which was trained on the train split only,
so the validation pages see the same kind of (imperfect) container as new pages would.
"""

import argparse
import json
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import ROOT, Dataset, load_config, mean_std, seed_everything, standardise  # noqa: E402
from train import train_net  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--arm", choices=["with", "without"], required=True)
    ap.add_argument("--config", default="default")
    ap.add_argument("--data", default=os.path.join(ROOT, "training", "data", "pith"))
    ap.add_argument("--seed", type=int, default=None, help="override the config's seed (replicates)")
    ap.add_argument("--threads", type=int, default=1, help="torch threads (the machine is shared)")
    ap.add_argument("--out", default=os.path.join(ROOT, "training", "runs", "container-ablation"))
    args = ap.parse_args()

    cfg = load_config(args.config)
    cfg["threads"] = args.threads
    if args.seed is not None:
        cfg["seed"] = args.seed
    rng = seed_everything(cfg["seed"], cfg["threads"])
    data = Dataset(args.data)
    names = list(data.unary_names)
    if args.arm == "with":
        with open(os.path.join(args.data, "container.json")) as f:
            meta = json.load(f)
        if meta["dumpDataHash"] != data.index["dataHash"]:
            raise SystemExit(f"{args.data}/container.f32 was made for another dump: re-run "
                             "`npx tsx training/container-dataset.ts --block-columns`")
        cols = np.fromfile(os.path.join(args.data, "container.f32"), dtype="<f4").reshape(-1, len(meta["columns"]))
        if cols.shape[0] != data.unary.shape[0]:
            raise SystemExit(f"container.f32 has {cols.shape[0]} rows, the dump {data.unary.shape[0]}")
        data.unary = np.hstack([data.unary, cols])  # [totalBlocks, nU + 2]
        names += meta["columns"]
        mismatched = {m["id"] for m in meta["mismatched"]}
    else:
        mismatched = set()
    train_pages, val_pages = data.split("train"), data.split("val")
    print(f"arm {args.arm}: {len(train_pages)} train / {len(val_pages)} val pages, {data.unary.shape[1]} unary features, "
          f"{len(mismatched)} pages without container columns, config {cfg['name']}", flush=True)

    mean, std = mean_std(data.unary[data.block_rows(train_pages)])
    x = standardise(data.unary, mean, std, cfg["feature_clip"])  # [totalBlocks, nU(+2)]
    t0 = time.time()
    result = train_net("unary", cfg, data, train_pages, val_pages, x, None, rng)
    os.makedirs(args.out, exist_ok=True)
    out = {
        "arm": args.arm,
        "config": cfg,
        "dataHash": data.index["dataHash"],
        "unaryFeatures": len(names),
        "extraColumns": names[len(data.unary_names):],
        "bestStep": result["best_step"],
        "stepsRun": result["steps_run"],
        "val": result["val"],
        "history": result["history"],
        "seconds": time.time() - t0,
    }
    path = os.path.join(args.out, f"{args.arm}.json" if args.seed is None else f"{args.arm}-seed{args.seed}.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1)
    print(f"arm {args.arm}: best val block F1 {result['val']['f1']:.4f} at step {result['best_step']} -> "
          f"{os.path.relpath(path, ROOT)}", flush=True)


if __name__ == "__main__":
    main()
