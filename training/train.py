"""Train the Web2Text unary and pairwise CNNs on the dataset that `npm run dump` wrote.

    /usr/bin/python3 training/train.py --set pith --config default
    -> training/runs/<set>/checkpoint.pt  (both nets, the config, feature names, normalisation, history)

Then `training/export.py --set <set>` writes models/. As in the reference (docs/design.md, The nets), the two nets are trained separately with Adam,
on batches of patches of 9 consecutive blocks (8 edges), evaluating on the validation split every `eval_every`
steps (unary: block F1, pairwise: accuracy) and keeping the best weights.

Departures from the reference (docs/design.md, Departures from the reference): a patch may start at any block, including the
first, and may end at the last; pages shorter than a patch are not used for training (they are still validated).
Option `patch_context` (0 = the reference): the net sees `patch_context` more blocks on each side of the patch
and the loss is taken on the patch only, so that training, like inference on a whole page, sees real neighbours
instead of zero padding at the patch edges.

Aligning training with the benchmark (word-F1, macro over pages, counts words, not blocks):
- `block_weight` weighs each block's unary loss by its word count (words.u32 of the dump): 'none' (every block
  the same, the reference), 'log_words' log2(2 + w), 'sqrt_words' sqrt(1 + w), 'words' w (wordless blocks leave the
  loss). The weights multiply the class weights; the loss is the weighted mean over the batch.
- `select_metric` 'word_f1' keeps the unary checkpoint with the best macro word-F1 proxy on val
  (common.word_f1_proxy) instead of the best pooled block F1.
Label noise (training/reports/label-noise.md): `--dynamics` records, at every unary evaluation, the probability of the gold label of every
training block (training dynamics for Dataset Cartography) into <run>/dynamics.npz, with the final p(y|x) for PVI;
`noisy_blocks` (from training/label_noise.py) drops or relabels listed training blocks.
"""

import argparse
import ast
import copy
import os
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import (ROOT, Dataset, block_metrics, edge_labels_of, load_config, mean_std, page_probabilities,  # noqa: E402
                    seed_everything, standardise, word_f1_proxy)
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


def evaluate(net, kind, data, pages, x, xe, select="block_f1"):
    """Unary: pooled block metrics over whole pages (and the macro word-F1 proxy when the dump has word counts);
    the score is block F1 or the word-F1 proxy (`select`). Pairwise: accuracy over all edges."""
    net.eval()
    preds, golds, words = [], [], []
    for p in pages:
        if kind == "unary":
            prob = page_probabilities(net, x[p.block_offset : p.block_offset + p.n_blocks])
            preds.append((prob[:, 1] > prob[:, 0]).astype(np.uint8))
            golds.append(data.labels[p.block_offset : p.block_offset + p.n_blocks])
            if data.words is not None:
                words.append(data.words[p.block_offset : p.block_offset + p.n_blocks])
        elif p.n_blocks > 1:
            prob = page_probabilities(net, xe[p.edge_offset : p.edge_offset + p.n_blocks - 1])
            preds.append(np.argmax(prob, axis=1))
            golds.append(data.edge_labels[p.edge_offset : p.edge_offset + p.n_blocks - 1])
    net.train()
    pred, gold = np.concatenate(preds), np.concatenate(golds)
    if kind == "unary":
        m = block_metrics(pred, gold)
        if words:
            m["word_f1"] = word_f1_proxy(preds, golds, words)["word_f1"]
        return (m["word_f1"] if select == "word_f1" else m["f1"]), m
    acc = float(np.mean(pred == gold)) if gold.size else 0.0
    return acc, {"accuracy": acc, "edges": int(gold.size)}


def block_weights(cfg, data):
    """Per-block unary loss weights from the word counts -> float32 [totalBlocks], or None for 'none'."""
    kind = cfg["block_weight"]
    if kind == "none":
        return None
    w = data.require_words(f"block_weight {kind!r}").astype(np.float64)
    if kind == "log_words":
        return np.log2(2.0 + w).astype(np.float32)
    if kind == "sqrt_words":
        return np.sqrt(1.0 + w).astype(np.float32)
    if kind == "words":
        return w.astype(np.float32)
    raise SystemExit(f"block_weight must be none, log_words, sqrt_words or words, not {kind!r}")


def type_weights(weights, data, base):
    """`base` (or ones) times the config's weight of each block's page type -> float32 [totalBlocks]."""
    kinds = getattr(data, "page_types", None) or {str(p["id"]): p.get("pageType") for p in data.index["pages"]}
    unknown = set(weights) - set(kinds.values())
    if unknown:
        raise SystemExit(f"first_type_weight names page types the data lacks: {sorted(unknown)}")
    w = np.ones(data.labels.shape[0], dtype=np.float32) if base is None else base.copy()
    for p in data.pages:
        w[p.block_offset: p.block_offset + p.n_blocks] *= weights.get(kinds.get(p.id), 1.0)
    return w


def record_dynamics(net, rows_of_pages, x, labels):
    """Probability of the gold label of every block of the given pages, whole-page inference. -> float32 [n]"""
    net.eval()
    out = []
    for lo, n in rows_of_pages:
        prob = page_probabilities(net, x[lo : lo + n])  # [n, 2]
        out.append(prob[np.arange(n), labels[lo : lo + n]])
    net.train()
    return np.concatenate(out).astype(np.float32)


def train_net(kind, cfg, data, train_pages, val_pages, x, xe, rng, sample_weight=None, dynamics=None):
    """sample_weight: float32 [totalBlocks] unary loss weight per block, or None. dynamics: a dict to fill with the
    per-evaluation gold-label probabilities of the training blocks (unary only), or None."""
    n_features = x.shape[1] if kind == "unary" else xe.shape[1]
    if kind == "unary":
        net = make_unary(n_features, cfg["dropout"], cfg["unary_dilations"])
    else:
        net = make_pairwise(n_features, cfg["dropout"])
    opt = torch.optim.Adam(net.parameters(), lr=cfg["lr"])
    n_classes = 2 if kind == "unary" else 4
    weight = None
    class_weight = cfg[f"{kind}_class_weight"]
    if class_weight in ("balanced", "sqrt_balanced"):
        y = data.labels[data.block_rows(train_pages)] if kind == "unary" else data.edge_labels[data.edge_rows(train_pages)]
        counts = np.bincount(y, minlength=n_classes).astype(np.float64)
        balanced = y.size / (n_classes * np.maximum(counts, 1))
        weight = torch.tensor(balanced if class_weight == "balanced" else np.sqrt(balanced), dtype=torch.float32)
    elif class_weight != "none":
        raise SystemExit(f"{kind}_class_weight must be 'none', 'balanced' or 'sqrt_balanced', not {class_weight!r}")

    ps, ctx = cfg["patch_size"], cfg["patch_context"]
    span = ps if kind == "unary" else ps - 1  # 9 blocks or the 8 edges between them: where the loss is taken
    offsets = np.arange(span + 2 * ctx)  # plus `ctx` context positions on each side, seen but not scored
    source = x if kind == "unary" else xe
    targets = data.labels.astype(np.int64) if kind == "unary" else data.edge_labels
    sampler = patch_sampler(train_pages, ps + 2 * ctx, cfg["batch_size"], rng)

    class_w = weight if weight is not None else torch.ones(n_classes)
    sw = torch.from_numpy(sample_weight) if (kind == "unary" and sample_weight is not None) else None
    if dynamics is not None:
        dyn_pages = [(p.block_offset, p.n_blocks) for p in train_pages]
        dyn_labels = targets
        dynamics.update(steps=[], probs=[])

    best_score, best_state, best_step, best_metrics, since_best = -1.0, None, 0, None, 0
    history = []
    t0 = time.time()
    for step in range(1, cfg["max_steps"] + 1):
        blocks, edges = next(sampler)
        rows = (blocks if kind == "unary" else edges)[:, None] + offsets[None, :]  # [batch, span + 2ctx]
        xb = torch.from_numpy(source[rows]).transpose(1, 2)  # [batch, span + 2ctx, nF] -> [batch, nF, span + 2ctx]
        yb = torch.from_numpy(targets[rows[:, ctx : ctx + span]])  # [batch, span]
        logits = net(xb)[:, :, ctx : ctx + span]  # [batch, nClasses, span]
        if sw is None:
            loss = F.cross_entropy(logits, yb, weight=weight)
        else:  # weighted mean of the per-block losses, weights = class weight * block weight
            wb = class_w[yb] * sw[torch.from_numpy(rows[:, ctx : ctx + span])]  # [batch, span]
            loss = (F.cross_entropy(logits, yb, reduction="none") * wb).sum() / wb.sum().clamp_min(1e-12)
        if cfg["l2"] > 0:
            loss = loss + cfg["l2"] * net.l2_penalty()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % cfg["eval_every"] == 0 or step == cfg["max_steps"]:
            score, metrics = evaluate(net, kind, data, val_pages, x, xe, cfg["select_metric"])
            history.append({"step": step, "loss": float(loss), "val": metrics})
            if dynamics is not None:
                dynamics["steps"].append(step)
                dynamics["probs"].append(record_dynamics(net, dyn_pages, x, dyn_labels).astype(np.float16))
            improved = score > best_score
            if improved:
                best_score, best_step, best_metrics, since_best = score, step, metrics, 0
                best_state = copy.deepcopy(net.state_dict())
            else:
                since_best += 1
            extra = f" (block F1 {metrics['f1']:.4f})" if kind == "unary" and cfg["select_metric"] == "word_f1" else ""
            name = {"unary": "F1" if cfg["select_metric"] == "block_f1" else "word-F1", "pairwise": "acc"}[kind]
            print(f"{kind} step {step:5d} loss {float(loss):.4f} val {name} "
                  f"{score:.4f}{extra}{' *' if improved else ''}  ({time.time() - t0:.0f}s)", flush=True)
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


def apply_noisy_blocks(cfg, data, train_pages):
    """Load the noisy-block list of training/label_noise.py; relabel flips the labels of those training blocks (and
    recomputes the edge labels), drop is applied as loss weight 0 by the caller. Validation labels never change."""
    path = cfg["noisy_blocks"] if os.path.isabs(cfg["noisy_blocks"]) else os.path.join(ROOT, cfg["noisy_blocks"])
    z = np.load(path)
    if str(z["dataHash"]) != str(data.index.get("dataHash")):
        raise SystemExit(f"{path} was made on another dump (dataHash differs): run training/label_noise.py again")
    rows = z["rows"].astype(np.int64)
    train_mask = np.zeros(data.labels.shape[0], dtype=bool)
    train_mask[data.block_rows(train_pages)] = True
    if not np.all(train_mask[rows]):
        raise SystemExit(f"{path} lists blocks outside the train split")
    if cfg["noisy_action"] == "relabel":
        data.labels = data.labels.copy()
        data.labels[rows] = 1 - data.labels[rows]
        data.edge_labels = edge_labels_of(data.labels, data.pages, data.edge.shape[0])
    print(f"noisy blocks: {rows.size} train blocks from {os.path.relpath(path, ROOT)}, {cfg['noisy_action']}")
    return {"file": os.path.relpath(path, ROOT), "action": cfg["noisy_action"], "blocks": int(rows.size), "rows": rows}


def write_dynamics(out_dir, dynamics, unary, data, train_pages, x, dilations=None):
    """<run>/dynamics.npz: rows [n] (global block rows of the train split), labels [n], words [n] (or empty),
    steps [k], probs [k, n] float16 p(gold label) at each evaluation, final [n] p(gold) of the kept checkpoint."""
    net = make_unary(x.shape[1], dilations=dilations)
    net.load_state_dict(unary["state"])
    rows = data.block_rows(train_pages)
    final = record_dynamics(net, [(p.block_offset, p.n_blocks) for p in train_pages], x, data.labels.astype(np.int64))
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, "dynamics.npz")
    np.savez_compressed(
        path, rows=rows, labels=data.labels[rows], words=data.words[rows] if data.words is not None else np.zeros(0),
        steps=np.array(dynamics["steps"]), probs=np.stack(dynamics["probs"]), final=final,
        best_step=unary["best_step"], dataHash=str(data.index.get("dataHash")),
    )
    print(f"wrote {os.path.relpath(path, ROOT)}: {len(dynamics['steps'])} evaluations x {rows.size} train blocks")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--set", default="pith", help="feature set: pith or paper")
    ap.add_argument("--config", default="default", help="training/config/<name>.py or a path")
    ap.add_argument("--data", help="dataset folder (default training/data/<set>)")
    ap.add_argument("--out", help="run folder (default training/runs/<set>)")
    ap.add_argument("--dynamics", action="store_true",
                    help="record training dynamics of the unary net into <run>/dynamics.npz (label noise)")
    ap.add_argument("--override", action="append", default=[], metavar="KEY=VALUE",
                    help="replace a config value (Python literal), e.g. block_weight='sqrt_words'; for experiments")
    args = ap.parse_args()

    cfg = load_config(args.config)
    for item in args.override:
        key, _, value = item.partition("=")
        if key not in cfg or key == "name":
            raise SystemExit(f"--override: unknown config key {key!r}")
        cfg[key] = ast.literal_eval(value)
        cfg["name"] += f"+{key}={cfg[key]}"
    data_dir = args.data or os.path.join(ROOT, "training", "data", args.set)
    out_dir = args.out or os.path.join(ROOT, "training", "runs", args.set)
    rng = seed_everything(cfg["seed"], cfg["threads"])
    t0 = time.time()

    data = Dataset(data_dir)
    if data.index["featureSet"] != args.set:
        raise SystemExit(f"{data_dir} holds feature set {data.index['featureSet']!r}, not {args.set!r}")
    data = data.with_extra([os.path.join(ROOT, "training", "data", name) for name in cfg["first_extra_data"]])
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
    sample_weight = block_weights(cfg, data)
    if cfg["first_type_weight"]:
        sample_weight = type_weights(cfg["first_type_weight"], data, sample_weight)
    cleaning = None
    if cfg["noisy_blocks"]:
        cleaning = apply_noisy_blocks(cfg, data, train_pages)
        if cleaning["rows"].size and cfg["noisy_action"] == "drop":
            if sample_weight is None:
                sample_weight = np.ones(data.labels.shape[0], dtype=np.float32)
            sample_weight = sample_weight.copy()
            sample_weight[cleaning["rows"]] = 0.0
    content_share = float(np.mean(data.labels[data.block_rows(train_pages)]))
    print(f"train content share {content_share:.3f}; block weight {cfg['block_weight']}; "
          f"unary selection {cfg['select_metric']}")

    dynamics = {} if args.dynamics else None
    unary = train_net("unary", cfg, data, train_pages, val_pages, x, xe, rng, sample_weight, dynamics)
    pairwise = train_net("pairwise", cfg, data, train_pages, val_pages, x, xe, rng)
    print(f"unary best val F1 {unary['val']['f1']:.4f} word-F1 proxy {unary['val'].get('word_f1', float('nan')):.4f} "
          f"at step {unary['best_step']}; "
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
        "cleaning": None if cleaning is None else {k: v for k, v in cleaning.items() if k != "rows"},
        "trainSeconds": time.time() - t0,
    }
    if dynamics is not None:
        write_dynamics(out_dir, dynamics, unary, data, train_pages, x, cfg["unary_dilations"])
    path = os.path.join(out_dir, "checkpoint.pt")
    torch.save(checkpoint, path)
    print(f"wrote {os.path.relpath(path, ROOT)} in {time.time() - t0:.0f}s")


if __name__ == "__main__":
    main()
