"""Train the Web2Text unary and pairwise CNNs on the dataset that `npm run dump` wrote.

    /usr/bin/python3 training/train.py --set pith --config default
    -> training/runs/<set>/checkpoint.pt  (both nets, the config, feature names, normalisation, history)

Then `training/export.py --set <set>` writes models/. Spec §8: the two nets are trained separately with Adam,
on batches of patches of 9 consecutive blocks (8 edges), evaluating on the validation split every `eval_every`
steps (unary: block F1, pairwise: accuracy) and keeping the best weights.

Departures from the reference (spec §15.10, consciously fixed): a patch may start at any block, including the
first, and may end at the last; pages shorter than a patch are not used for training (they are still validated).
Option `patch_context` (0 = the reference): the net sees `patch_context` more blocks on each side of the patch
and the loss is taken on the patch only, so that training, like inference on a whole page, sees real neighbours
instead of zero padding at the patch edges.
"""

import argparse
import copy
import os
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import ROOT, Dataset, block_metrics, load_config, mean_std, page_probabilities, seed_everything, standardise  # noqa: E402
from model import make_pairwise, make_unary  # noqa: E402


def patch_sampler(pages, patch_size, batch_size, rng):
    """Yields [batch_size] arrays of (block start, edge start) of patches; documents come from a shuffle queue
    (random order, reshuffled when used up), the patch start is uniform inside the document."""
    usable = [p for p in pages if p.n_blocks >= patch_size]
    if not usable:
        raise SystemExit(f"no training page has {patch_size} blocks or more")
    queue = []
    while True:
        blocks = np.empty(batch_size, dtype=np.int64)
        edges = np.empty(batch_size, dtype=np.int64)
        for k in range(batch_size):
            if not queue:
                queue = list(rng.permutation(len(usable)))
            p = usable[queue.pop()]
            start = int(rng.integers(0, p.n_blocks - patch_size + 1))
            blocks[k] = p.block_offset + start
            edges[k] = p.edge_offset + start
        yield blocks, edges


def evaluate(net, kind, data, pages, x, xe):
    """Unary: pooled block metrics over whole pages. Pairwise: accuracy over all edges."""
    net.eval()
    preds, golds = [], []
    for p in pages:
        if kind == "unary":
            prob = page_probabilities(net, x[p.block_offset : p.block_offset + p.n_blocks])
            preds.append((prob[:, 1] > prob[:, 0]).astype(np.uint8))
            golds.append(data.labels[p.block_offset : p.block_offset + p.n_blocks])
        elif p.n_blocks > 1:
            prob = page_probabilities(net, xe[p.edge_offset : p.edge_offset + p.n_blocks - 1])
            preds.append(np.argmax(prob, axis=1))
            golds.append(data.edge_labels[p.edge_offset : p.edge_offset + p.n_blocks - 1])
    net.train()
    pred, gold = np.concatenate(preds), np.concatenate(golds)
    if kind == "unary":
        m = block_metrics(pred, gold)
        return m["f1"], m
    acc = float(np.mean(pred == gold)) if gold.size else 0.0
    return acc, {"accuracy": acc, "edges": int(gold.size)}


def train_net(kind, cfg, data, train_pages, val_pages, x, xe, rng):
    n_features = x.shape[1] if kind == "unary" else xe.shape[1]
    net = (make_unary if kind == "unary" else make_pairwise)(n_features, cfg["dropout"])
    opt = torch.optim.Adam(net.parameters(), lr=cfg["lr"])
    n_classes = 2 if kind == "unary" else 4
    weight = None
    class_weight = cfg[f"{kind}_class_weight"]
    if class_weight == "balanced":
        y = data.labels[data.block_rows(train_pages)] if kind == "unary" else data.edge_labels[data.edge_rows(train_pages)]
        counts = np.bincount(y, minlength=n_classes).astype(np.float64)
        weight = torch.tensor(y.size / (n_classes * np.maximum(counts, 1)), dtype=torch.float32)
    elif class_weight != "none":
        raise SystemExit(f"{kind}_class_weight must be 'none' or 'balanced', not {class_weight!r}")

    ps, ctx = cfg["patch_size"], cfg["patch_context"]
    span = ps if kind == "unary" else ps - 1  # 9 blocks or the 8 edges between them: where the loss is taken
    offsets = np.arange(span + 2 * ctx)  # plus `ctx` context positions on each side, seen but not scored
    source = x if kind == "unary" else xe
    targets = data.labels.astype(np.int64) if kind == "unary" else data.edge_labels
    sampler = patch_sampler(train_pages, ps + 2 * ctx, cfg["batch_size"], rng)

    best_score, best_state, best_step, best_metrics, since_best = -1.0, None, 0, None, 0
    history = []
    t0 = time.time()
    for step in range(1, cfg["max_steps"] + 1):
        blocks, edges = next(sampler)
        rows = (blocks if kind == "unary" else edges)[:, None] + offsets[None, :]  # [batch, span + 2ctx]
        xb = torch.from_numpy(source[rows]).transpose(1, 2)  # [batch, span + 2ctx, nF] -> [batch, nF, span + 2ctx]
        yb = torch.from_numpy(targets[rows[:, ctx : ctx + span]])  # [batch, span]
        logits = net(xb)[:, :, ctx : ctx + span]  # [batch, nClasses, span]
        loss = F.cross_entropy(logits, yb, weight=weight)
        if cfg["l2"] > 0:
            loss = loss + cfg["l2"] * net.l2_penalty()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % cfg["eval_every"] == 0 or step == cfg["max_steps"]:
            score, metrics = evaluate(net, kind, data, val_pages, x, xe)
            history.append({"step": step, "loss": float(loss), "val": metrics})
            improved = score > best_score
            if improved:
                best_score, best_step, best_metrics, since_best = score, step, metrics, 0
                best_state = copy.deepcopy(net.state_dict())
            else:
                since_best += 1
            print(f"{kind} step {step:5d} loss {float(loss):.4f} val {'F1' if kind == 'unary' else 'acc'} "
                  f"{score:.4f}{' *' if improved else ''}  ({time.time() - t0:.0f}s)", flush=True)
            if cfg["patience"] and since_best >= cfg["patience"]:
                print(f"{kind}: no improvement in {cfg['patience']} evaluations, stopping at step {step}")
                break
    return {
        "state": best_state,
        "best_step": best_step,
        "steps_run": step,
        "val": best_metrics,
        "history": history,
        "seconds": time.time() - t0,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--set", default="pith", help="feature set: pith or paper")
    ap.add_argument("--config", default="default", help="training/config/<name>.py or a path")
    ap.add_argument("--data", help="dataset folder (default training/data/<set>)")
    ap.add_argument("--out", help="run folder (default training/runs/<set>)")
    args = ap.parse_args()

    cfg = load_config(args.config)
    data_dir = args.data or os.path.join(ROOT, "training", "data", args.set)
    out_dir = args.out or os.path.join(ROOT, "training", "runs", args.set)
    rng = seed_everything(cfg["seed"], cfg["threads"])
    t0 = time.time()

    data = Dataset(data_dir)
    if data.index["featureSet"] != args.set:
        raise SystemExit(f"{data_dir} holds feature set {data.index['featureSet']!r}, not {args.set!r}")
    train_pages, val_pages = data.split("train"), data.split("val")
    if not train_pages or not val_pages:
        raise SystemExit(f"{data_dir}: need pages in both the train and the val split")
    print(f"{args.set}: {len(train_pages)} train pages, {len(val_pages)} val pages, "
          f"{data.unary.shape[1]} unary / {data.edge.shape[1]} edge features, config {cfg['name']}")

    # normalisation from the train split only
    unary_mean, unary_std = mean_std(data.unary[data.block_rows(train_pages)])
    edge_mean, edge_std = mean_std(data.edge[data.edge_rows(train_pages)])
    x = standardise(data.unary, unary_mean, unary_std, cfg["feature_clip"])  # [totalBlocks, nU]
    xe = standardise(data.edge, edge_mean, edge_std, cfg["feature_clip"])  # [totalEdges, nE]
    content_share = float(np.mean(data.labels[data.block_rows(train_pages)]))
    print(f"train content share {content_share:.3f}")

    unary = train_net("unary", cfg, data, train_pages, val_pages, x, xe, rng)
    pairwise = train_net("pairwise", cfg, data, train_pages, val_pages, x, xe, rng)
    print(f"unary best val F1 {unary['val']['f1']:.4f} at step {unary['best_step']}; "
          f"pairwise best val acc {pairwise['val']['accuracy']:.4f} at step {pairwise['best_step']}")

    os.makedirs(out_dir, exist_ok=True)
    checkpoint = {
        "config": cfg,
        "featureSet": args.set,
        "dataDir": os.path.relpath(data_dir, ROOT),
        "featureSchema": data.index.get("featureSchema"),
        "schemaHash": data.index.get("schemaHash"),
        "dataHash": data.index.get("dataHash"),
        "unaryFeatureNames": data.unary_names,
        "edgeFeatureNames": data.edge_names,
        "unaryMean": unary_mean.tolist(),
        "unaryStd": unary_std.tolist(),
        "edgeMean": edge_mean.tolist(),
        "edgeStd": edge_std.tolist(),
        "trainPages": len(train_pages),
        "valPages": len(val_pages),
        "trainContentShare": content_share,
        "unary": unary,
        "pairwise": pairwise,
        "trainSeconds": time.time() - t0,
    }
    path = os.path.join(out_dir, "checkpoint.pt")
    torch.save(checkpoint, path)
    print(f"wrote {os.path.relpath(path, ROOT)} in {time.time() - t0:.0f}s")


if __name__ == "__main__":
    main()
