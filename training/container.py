"""Train the main-content container model (docs/design.md, The container model) and pick k on validation.

    npx tsx training/container-dataset.ts            # -> training/data/container/
    /usr/bin/python3 training/container.py           # -> models/container.json, training/runs/container/*.json

Label: on each page the container is the SMALLEST candidate (fewest characters) whose text holds at least
`label_share` of the page's aligned content characters. With a share above one half the candidates that qualify
are nested (two disjoint nodes cannot both hold most of the content), so the smallest is the deepest of one chain.
The share is chosen below from the label's own quality as an extractor (mean char-F1 of "keep the label node").

Models (logistic regression, L2, Newton's method; deterministic):
  single    one model over all train candidates, positives up-weighted to balance the classes
  ensemble  the patent's variant (claims 6-7): one model per train page, probabilities averaged
each on the patent's four features and on the four plus the extras. Decision (claims 8-9): the deepest of the k
best-scored candidates. k is chosen on validation by mean char-F1 of "keep everything in the container", over
1..8 (shipped) and over the patent's 4..6 (`kPatent`, reported): on WCXB the patent's range picks sub-parts of the
article far too often (training/reports/container.md).
"""

import argparse
import datetime
import json
import os
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEED = 1337
PATENT = ["depth", "n_child_tags", "text_density", "title_overlap"]
EXTRA = ["link_density", "content_tag_share", "log_n_characters", "relative_depth"]
LABEL_SHARES = [0.7, 0.8, 0.85, 0.9, 0.95, 1.0]
KS = [1, 2, 3, 4, 5, 6, 7, 8]
K_CHOICES = [4, 5, 6]
L2_SINGLE = 1e-3     # per-sample mean loss + L2 on weights
L2_DOC = 1e-1        # per-page models see ~1 positive: strong L2 keeps them finite
HIT_SHARE = 0.9      # "the container holds the content": >= 90% of the content characters


def main():
    args = parse_args()
    np.random.seed(SEED)
    os.makedirs(args.runs, exist_ok=True)

    columns, table, pages = load(args.data)
    train = [p for p in pages if p["split"] == "train"]
    val = [p for p in pages if p["split"] == "val"]
    print(f"{len(train)} train pages, {len(val)} val pages, {table.shape[0]} candidates")

    share, label_table = choose_label_share(table, columns, train, args.label_share)
    gold_train = label_nodes(table, columns, train, share)
    gold_val = label_nodes(table, columns, val, share)
    baselines = {
        "oracle": summarise(table, columns, val, gold_val, gold_val),
        "root": summarise(table, columns, val, [0] * len(val), gold_val),  # candidate 0 is the CDOM root ("everything")
    }
    targets = training_targets(table, columns, train + val, gold_train + gold_val, share, args.positives)
    variants = fit_variants(table, columns, train, val, gold_val, targets)
    write_outputs(args, variants, label_table, share, baselines, len(train), len(val))


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=os.path.join(ROOT, "training", "data", "container"))
    ap.add_argument("--out", default=os.path.join(ROOT, "models", "container.json"))
    ap.add_argument("--runs", default=os.path.join(ROOT, "training", "runs", "container"))
    ap.add_argument("--label-share", type=float, default=None, help="fix the label share instead of choosing it")
    ap.add_argument("--positives", choices=["smallest", "chain"], default="smallest",
                    help="train positives: the smallest holding node only, or every node holding the share (its ancestors too)")
    return ap.parse_args()


def load(data_dir):
    """The candidate table of training/container-dataset.ts: its columns, the rows [n_candidates, n_columns] and the
    pages that have content and candidates (each page's rows are table[offset : offset + count])."""
    with open(os.path.join(data_dir, "index.json")) as f:
        index = json.load(f)
    columns = index["columns"]
    table = np.fromfile(os.path.join(data_dir, "candidates.f32"), dtype="<f4").reshape(-1, len(columns)).astype(np.float64)
    pages = [p for p in index["pages"] if p["contentChars"] > 0 and p["count"] > 0]
    return columns, table, pages


def rows_of(table, page):
    return table[page["offset"] : page["offset"] + page["count"]]


def choose_label_share(table, columns, train, fixed_share):
    """The label share whose label node, kept as it is, extracts best on the train pages (unless one is given)."""
    label_table = {}
    for share in LABEL_SHARES:
        label_table[share] = summarise(table, columns, train, label_nodes(table, columns, train, share))
        m = label_table[share]
        print(f"label share {share:.2f}: train oracle recall {m['recall']:.3f} precision {m['precision']:.3f} charF1 {m['charF1']:.3f}")
    share = fixed_share if fixed_share is not None else max(LABEL_SHARES, key=lambda s: label_table[s]["charF1"])
    print(f"label share {share}")
    return share, label_table


def label_nodes(table, columns, pages, share):
    """Per page: index (within the page) of the smallest candidate holding >= share of the content chars."""
    node_chars, content_chars = columns.index("node_chars"), columns.index("content_chars")
    out = []
    for page in pages:
        rows = rows_of(table, page)
        holding = np.where(rows[:, content_chars] >= share * page["contentChars"] - 1e-6)[0]
        out.append(int(holding[np.argmin(rows[holding, node_chars])]))  # argmin: first (pre-order, outermost) on ties
    return out


def training_targets(table, columns, pages, gold, share, positives):
    """Target per candidate row: 1 for each page's label node ('chain': also every node holding the share)."""
    targets = np.zeros(table.shape[0])
    content_chars = columns.index("content_chars")
    for page, label in zip(pages, gold):
        if positives == "chain":
            rows = slice(page["offset"], page["offset"] + page["count"])
            targets[rows] = (table[rows, content_chars] >= share * page["contentChars"] - 1e-6).astype(np.float64)
        targets[page["offset"] + label] = 1.0
    return targets


def fit_variants(table, columns, train, val, gold_val, targets):
    """The four variants (patent / extended features x single / ensemble models), each with its k chosen on val."""
    train_rows = np.concatenate([np.arange(p["offset"], p["offset"] + p["count"]) for p in train])
    variants = {}
    for feature_set, features in (("patent", PATENT), ("extended", PATENT + EXTRA)):
        feature_columns = [columns.index(f) for f in features]
        x_train = table[train_rows][:, feature_columns]
        mean = x_train.mean(axis=0)
        std = x_train.std(axis=0)
        std[std == 0] = 1.0
        y = targets[train_rows]
        models = {
            "single": [fit_single((x_train - mean) / std, y)],
            "ensemble": fit_ensemble(table, train, targets, feature_columns, mean, std),
        }
        for model_kind, model_list in models.items():
            by_k = evaluate_by_k(model_list, table, columns, features, mean, std, val, gold_val)
            key = f"{feature_set}-{model_kind}"
            best_k = max(KS, key=lambda k: (by_k[k]["charF1"], -k))
            patent_k = max(K_CHOICES, key=lambda k: (by_k[k]["charF1"], -k))
            variants[key] = {"features": features, "mean": mean.tolist(), "std": std.tolist(), "models": model_list,
                             "val": {str(k): v for k, v in by_k.items()}, "k": best_k, "kPatent": patent_k}
            for k in KS:
                m = by_k[k]
                print(f"{key:18s} k={k}: hit90 {m['hit90']:.3f} recall {m['recall']:.3f} precision {m['precision']:.3f} "
                      f"charF1 {m['charF1']:.3f} exact {m['exact']:.3f}{'  <- k' if k == best_k else ''}"
                      f"{'  <- k in 4..6' if k == patent_k else ''}")
    return variants


def fit_single(z, y):
    """One model over all train candidates, positives up-weighted to balance the classes."""
    positives = y.sum()
    sample_weight = np.where(y == 1, (y.size - positives) / positives, 1.0)
    weights, bias = fit_logistic(z, y, sample_weight, L2_SINGLE)
    return {"weights": weights.tolist(), "bias": bias}


def fit_ensemble(table, train, targets, feature_columns, mean, std):
    """The patent's per-document ensemble (claims 6-7): one model per train page with both classes."""
    ensemble = []
    for page in train:
        rows = np.arange(page["offset"], page["offset"] + page["count"])
        y = targets[rows]
        if y.sum() == 0 or y.sum() == y.size:
            continue
        sample_weight = np.where(y == 1, (y.size - y.sum()) / y.sum(), 1.0)
        weights, bias = fit_logistic((table[rows][:, feature_columns] - mean) / std, y, sample_weight, L2_DOC)
        ensemble.append({"weights": weights.tolist(), "bias": bias})
    return ensemble


def fit_logistic(x, y, sample_weight, l2, iters=30):
    """Weighted L2 logistic regression by Newton's method. x: [n, d] standardised -> (weights [d], bias)."""
    n, d = x.shape
    xb = np.hstack([x, np.ones((n, 1))])  # [n, d+1]
    w = np.zeros(d + 1)
    sw = sample_weight / sample_weight.sum()
    reg = np.full(d + 1, l2)
    reg[-1] = 0.0  # no penalty on the bias
    for _ in range(iters):
        p = sigmoid(xb @ w)
        g = xb.T @ (sw * (p - y)) + reg * w
        h = (xb * (sw * p * (1 - p))[:, None]).T @ xb + np.diag(reg + 1e-9)
        step = np.linalg.solve(h, g)
        w -= step
        if np.max(np.abs(step)) < 1e-8:
            break
    return w[:-1], float(w[-1])


def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-np.clip(z, -40, 40)))


def mean_probability(models, x):
    """Mean probability of the models. x: [n, d] standardised."""
    return np.mean([sigmoid(x @ np.asarray(m["weights"]) + m["bias"]) for m in models], axis=0)


def deepest_of_top_k(scores, depths, k):
    """Deepest of the k best (ties in depth: higher score, then earlier) -- as deepestOfTopK in
    src/core/model/container-model.ts."""
    order = sorted(range(len(scores)), key=lambda i: (-scores[i], i))[: max(1, k)]
    best = order[0]
    for i in order[1:]:
        if depths[i] > depths[best] or (depths[i] == depths[best] and scores[i] > scores[best]):
            best = i
    return best


def evaluate_by_k(models, table, columns, features, mean, std, pages, gold):
    """summarise() of the models' choice on `pages` for every k of KS."""
    feature_columns = [columns.index(f) for f in features]
    depth = columns.index("depth")
    picks = {k: [] for k in KS}
    for page in pages:
        rows = rows_of(table, page)
        scores = mean_probability(models, (rows[:, feature_columns] - mean) / std)
        for k in KS:
            picks[k].append(deepest_of_top_k(scores, rows[:, depth], k))
    return {k: summarise(table, columns, pages, picks[k], gold) for k in KS}


def keep_scores(table, columns, page, idx):
    """Char recall, precision, F1 of keeping candidate idx of the page."""
    node_chars, content_chars = columns.index("node_chars"), columns.index("content_chars")
    row = table[page["offset"] + idx]
    recall = row[content_chars] / page["contentChars"]
    precision = row[content_chars] / row[node_chars] if row[node_chars] > 0 else 0.0
    f1 = 2 * recall * precision / (recall + precision) if recall + precision > 0 else 0.0
    return recall, precision, f1


def summarise(table, columns, pages, chosen, gold=None):
    """Means over the pages of keeping the chosen candidate of each (and the share equal to the gold one)."""
    s = np.array([keep_scores(table, columns, p, i) for p, i in zip(pages, chosen)])
    out = {
        "pages": len(pages),
        "hit90": float(np.mean(s[:, 0] >= HIT_SHARE)),
        "recall": float(s[:, 0].mean()),
        "precision": float(s[:, 1].mean()),
        "charF1": float(s[:, 2].mean()),
    }
    if gold is not None:
        out["exact"] = float(np.mean(np.array(chosen) == np.array(gold)))
    return out


def write_outputs(args, variants, label_table, share, baselines, n_train, n_val):
    """Every variant to runs/ (container-eval.ts compares them by word-F1), the best one to models/container.json,
    and the summary."""
    date = datetime.date.today().isoformat()
    positives = args.positives
    command = ("npx tsx training/container-dataset.ts && /usr/bin/python3 training/container.py"
               + ("" if positives == "smallest" else f" --positives {positives}"))

    def model_json(key):
        v = variants[key]
        k = v["k"]
        return {
            "version": f"container-{key}-{date}",
            "date": date,
            "command": command,
            "variant": key,
            "featureNames": v["features"],
            "mean": v["mean"],
            "std": v["std"],
            "models": v["models"],
            "k": k,
            "decision": "deepest (largest depth) of the k highest-probability candidates",
            "label": f"positive: {positives}; the smallest CDOM internal node holding >= {share} of the aligned content characters",
            "kPatent": v["kPatent"],
            "metrics": {"val": v["val"][str(k)], "valPatentK": v["val"][str(v["kPatent"])], "valPages": n_val,
                        "trainPages": n_train, "hitShare": HIT_SHARE, "positives": positives},
        }

    for key in variants:
        with open(os.path.join(args.runs, f"{key}.json"), "w") as f:
            json.dump(model_json(key), f)
    ship = max(variants, key=lambda key: (variants[key]["val"][str(variants[key]["k"])]["charF1"], key.endswith("single")))
    with open(args.out, "w") as f:
        json.dump(model_json(ship), f, indent=1)
        f.write("\n")
    summary = {
        "date": date, "command": command, "labelShare": share,
        "labelTable": {str(s): v for s, v in label_table.items()},
        "val": {"oracle": baselines["oracle"], "root": baselines["root"],
                **{key: {"k": v["k"], "byK": v["val"]} for key, v in variants.items()}},
        "positives": positives, "shipped": ship, "trainPages": n_train, "valPages": n_val,
    }
    with open(os.path.join(args.runs, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
    print(f"oracle val: {baselines['oracle']}")
    print(f"root val: {baselines['root']}")
    print(f"shipped {ship} (k={variants[ship]['k']}) -> {os.path.relpath(args.out, ROOT)}")


if __name__ == "__main__":
    sys.exit(main())
