"""The page-level second stage (issue 10): out-of-fold first passes, the page net, its export.

    /usr/bin/python3 training/page.py folds            # K first-stage unary nets, each trained without one fold of
                                                       # the training sites -> training/runs/<set>/folds/<k>/ (ONNX)
    npm run dump:page                                  # TS: first pass of every page by the net that never saw it
                                                       # (its fold's net for train pages, models/ for val pages) and
                                                       # the page features (src/core/features/page-context.ts) -> page.f32
    /usr/bin/python3 training/page.py train            # the page net on page.f32 -> training/runs/<set>/page.pt
    /usr/bin/python3 training/page.py export           # models/<set>-page.onnx, `page` in models/<set>.json, golden
                                                       # pages, lambda on val, parity through the TS runtime

Why folds: a first pass run on the pages it was trained on is more confident and more right than on new pages,
and a second net trained on such probabilities would learn to trust them too much. Every training page therefore
gets its first-pass probabilities from a net trained without its site (K folds by domain over the training split);
validation pages get them from the shipped first stage (trained on the whole training split), as at inference.
The fold nets use the shipped first stage's standardisation and config, so only the training pages differ.

The page net is the same CNN as the unary net (training/model.py) over the page features; it is trained and
selected like the unary net (config `page.py`).
"""

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time

import numpy as np
import onnx
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import (ROOT, Dataset, Page, block_metrics, load_config, mean_std, page_probabilities,  # noqa: E402
                    seed_everything, standardise, viterbi, word_f1_proxy)
from model import GroupedMeanOfNets, MeanOfNets, make_pairwise, make_unary  # noqa: E402
from train import train_net  # noqa: E402
from export import TOLERANCE, export_onnx, f32  # noqa: E402


# Val word-F1 proxy that a nonzero page-stage lambda must gain over lambda 0 (export).
MIN_LAMBDA_GAIN = 0.005


def fold_of_pages(pages, k, seed):
    """Training pages -> fold index, by domain: domains sorted, shuffled with `seed`, dealt round-robin."""
    domains = sorted({p.domain for p in pages})
    order = np.random.default_rng(seed).permutation(len(domains))
    fold_of_domain = {domains[j]: i % k for i, j in enumerate(order)}
    return {p.id: fold_of_domain[p.domain] for p in pages}


def load_data(data_dir):
    data = Dataset(data_dir)
    domains = {str(p["id"]): p["domain"] for p in data.index["pages"]}
    for p in data.pages:
        p.domain = domains[p.id]
    return data


def cmd_folds(args):
    """Train the fold nets and export each as a model folder the TS runtime can load."""
    ckpt = torch.load(os.path.join(args.run, "checkpoint.pt"))
    cfg = ckpt["config"]
    data = load_data(args.data or os.path.join(ROOT, ckpt["dataDir"]))
    if data.unary_names != ckpt["unaryFeatureNames"]:
        raise SystemExit("the dataset's feature names differ from the checkpoint's: dump and train again")
    train_pages, val_pages = data.split("train"), data.split("val")
    folds = fold_of_pages(train_pages, args.k, cfg["seed"])
    x = standardise(data.unary, ckpt["unaryMean"], ckpt["unaryStd"], cfg["feature_clip"])  # [totalBlocks, nU]
    models_dir = args.models
    out = os.path.join(args.run, "folds")
    os.makedirs(out, exist_ok=True)
    for k in range(args.k):
        t0 = time.time()
        rng = seed_everything(cfg["seed"] + 1 + k, cfg["threads"])
        fold_train = [p for p in train_pages if folds[p.id] != k]
        print(f"fold {k}: {len(fold_train)} train pages, {sum(1 for p in train_pages if folds[p.id] == k)} held out")
        result = train_net("unary", cfg, data, fold_train, val_pages, x, None, rng)
        net = make_unary(x.shape[1], dilations=cfg["unary_dilations"])
        net.load_state_dict(result["state"])
        net.eval()
        fold_dir = os.path.join(out, str(k))
        os.makedirs(fold_dir, exist_ok=True)
        export_onnx(net, x.shape[1], os.path.join(fold_dir, f"{args.set}-unary.onnx"))
        # the runtime loads a whole model folder: the shipped pairwise net and sidecar (without the page stage)
        shutil.copyfile(os.path.join(models_dir, f"{args.set}-pairwise.onnx"), os.path.join(fold_dir, f"{args.set}-pairwise.onnx"))
        with open(os.path.join(models_dir, f"{args.set}.json")) as f:
            sidecar = json.load(f)
        if sidecar["unaryMean"] != ckpt["unaryMean"]:
            raise SystemExit(f"{models_dir}/{args.set}.json is not the export of {args.run}: export the first stage first")
        sidecar.pop("page", None)
        sidecar["version"] += f"-fold{k}"
        with open(os.path.join(fold_dir, f"{args.set}.json"), "w") as f:
            json.dump(sidecar, f, indent=1)
        print(f"fold {k}: best val F1 {result['val']['f1']:.4f} at step {result['best_step']} ({time.time() - t0:.0f}s)")
    with open(os.path.join(out, "folds.json"), "w") as f:
        json.dump({"k": args.k, "seed": cfg["seed"], "dataHash": data.index.get("dataHash"), "folds": folds}, f, indent=0)
    print(f"wrote {os.path.relpath(out, ROOT)}/folds.json and {args.k} fold models")


# Each page feature schema's names are a prefix of the next one's (src/core/features/page-context.ts): a schema is
# the dump's names up to the first name it lacks (None: all of them, the newest schema).
SCHEMA_END = {"page-3": "link_internal", "page-4": "topic_block_sim", "page-5": None}


class PageData:
    """page.f32 [totalBlocks, nP] beside the first-stage dump, and page-index.json (names, schema, hashes).

    `schema`: keep the features of that (older) schema, a prefix of the dump's (config `page_schema`); `columns`:
    append the per-block columns of DIR/<name>.f32 (config `page_columns`, experiments: not computed at inference)."""

    def __init__(self, data_dir, schema=None, columns=()):
        path = os.path.join(data_dir, "page-index.json")
        if not os.path.exists(path):
            raise SystemExit(f"{path} not found: run `npm run dump:page` first")
        with open(path) as f:
            self.index = json.load(f)
        self.names = self.index["pageFeatureNames"]
        self.x = np.fromfile(os.path.join(data_dir, "page.f32"), dtype="<f4").reshape(-1, len(self.names))  # [totalBlocks, nP]
        if schema is not None and schema != self.index["pageFeatureSchema"]:
            if schema not in SCHEMA_END or SCHEMA_END[schema] not in self.names:
                raise SystemExit(f"{data_dir}: page schema {schema} is not a prefix of the dump's "
                                 f"{self.index['pageFeatureSchema']}")
            width = self.names.index(SCHEMA_END[schema])
            self.names, self.x = self.names[:width], np.ascontiguousarray(self.x[:, :width])
            self.index = {**self.index, "pageFeatureSchema": schema, "pageFeatureNames": self.names}
        for name in columns:
            with open(os.path.join(data_dir, f"{name}.json")) as f:
                meta = json.load(f)
            cols = np.fromfile(os.path.join(data_dir, f"{name}.f32"), dtype="<f4").reshape(-1, len(meta["columns"]))
            if cols.shape[0] != self.x.shape[0]:
                raise SystemExit(f"{data_dir}/{name}.f32 has {cols.shape[0]} rows, page.f32 {self.x.shape[0]}")
            self.names = self.names + meta["columns"]
            self.x = np.concatenate([self.x, cols], axis=1)
        if not np.all(np.isfinite(self.x)):
            raise SystemExit("page.f32 holds NaN or infinity: fix src/core/features/page-context.ts")


def load_page_data(data_dir, cfg=None):
    """A first-stage dump with its page features (those of config `cfg`), checked to belong together."""
    data = load_data(data_dir)
    page = PageData(data_dir, *page_selection(cfg))
    if page.index["dataHash"] != data.index.get("dataHash"):
        raise SystemExit(f"{data_dir}/page.f32 was made from another first-stage dump: run `npm run dump:page` again")
    if page.x.shape[0] != data.labels.shape[0]:
        raise SystemExit(f"{data_dir}/page.f32 has {page.x.shape[0]} rows, the dump {data.labels.shape[0]}")
    return data, page


def page_selection(cfg):
    """(schema, columns) of a page config (PageData's arguments)."""
    return (None, ()) if cfg is None else (cfg.get("page_schema"), tuple(cfg.get("page_columns", ())))


class TrainingSet:
    """The page net's training data: the main dump and the config's `extra_data` dumps (their train pages only),
    concatenated; labels, words and pages with shifted offsets, as train_net reads them."""

    def __init__(self, cfg, data_dir):
        data, page = load_page_data(data_dir, cfg)
        self.main, self.page, self.names = data, page, page.names
        parts = [(data, page, None)]
        for name in cfg["extra_data"]:
            extra_dir = os.path.join(ROOT, "training", "data", name)
            extra, extra_page = load_page_data(extra_dir, cfg)
            if extra_page.names != page.names:
                raise SystemExit(f"{extra_dir}: other page features than {data_dir}: dump:page both again")
            parts.append((extra, extra_page, "train"))
        xs, labels, words, self.pages, self.page_types = [], [], [], [], {}
        offset = 0
        for d, pg, only in parts:
            kinds = {str(p["id"]): p["pageType"] for p in d.index["pages"]}
            for p in d.pages:
                if only is not None and p.split != only:
                    continue
                self.pages.append(Page(p.id, p.split, p.block_offset + offset, p.n_blocks, 0))
                self.page_types[p.id] = kinds[p.id]
            xs.append(pg.x)
            labels.append(d.labels)
            words.append(d.require_words("the page stage"))
            offset += d.labels.shape[0]
        self.x = np.concatenate(xs) if len(xs) > 1 else xs[0]  # [totalBlocks, nP] raw
        self.labels = np.concatenate(labels) if len(labels) > 1 else labels[0]
        self.words = np.concatenate(words) if len(words) > 1 else words[0]
        self.n_extra = len(self.pages) - len(data.pages)

    def split(self, name):
        return [p for p in self.pages if p.split == name and p.n_blocks > 0]

    def block_rows(self, pages):
        return np.concatenate([np.arange(p.block_offset, p.block_offset + p.n_blocks) for p in pages])

    def sample_weight(self, cfg):
        """float32 [totalBlocks] from `page_type_weight`, or None when it weighs nothing."""
        weights = cfg["page_type_weight"]
        if not weights:
            return None
        unknown = set(weights) - set(self.page_types.values())
        if unknown:
            raise SystemExit(f"page_type_weight names page types the data lacks: {sorted(unknown)}")
        w = np.ones(self.labels.shape[0], dtype=np.float32)
        for p in self.pages:
            w[p.block_offset: p.block_offset + p.n_blocks] = weights.get(self.page_types[p.id], 1.0)
        return w


def cmd_train(args):
    cfg = load_config(args.config)
    t0 = time.time()
    data_dir = args.data or os.path.join(ROOT, "training", "data", args.set)
    data = TrainingSet(cfg, data_dir)
    page = data.page
    train_pages, val_pages = data.split("train"), data.split("val")
    mean, std = mean_std(data.x[data.block_rows(train_pages)])
    x = standardise(data.x, mean, std, cfg["feature_clip"])  # [totalBlocks, nP]
    sample_weight = data.sample_weight(cfg)
    seeds = [cfg["seed"] + i for i in range(cfg.get("ensemble", 1))]
    print(f"page net: {len(train_pages)} train ({data.n_extra} from {cfg['extra_data']}) / {len(val_pages)} val pages, "
          f"{x.shape[1]} features, config {cfg['name']}, seeds {seeds}, page type weights {cfg['page_type_weight']}")
    results = []
    for seed in seeds:
        rng = seed_everything(seed, cfg["threads"])
        result = train_net("unary", cfg, data, train_pages, val_pages, x, None, rng, sample_weight=sample_weight)
        print(f"page net (seed {seed}) best val F1 {result['val']['f1']:.4f} word-F1 proxy "
              f"{result['val'].get('word_f1', float('nan')):.4f} at step {result['best_step']}")
        results.append(result)
    os.makedirs(args.run, exist_ok=True)
    torch.save({
        "config": cfg, "featureSet": args.set, "dataDir": os.path.relpath(data_dir, ROOT),
        "dataHash": data.main.index.get("dataHash"), "pageIndex": {k: v for k, v in page.index.items()},
        "featureNames": page.names, "mean": mean.tolist(), "std": std.tolist(), "nets": results, "seeds": seeds,
        "trainSeconds": time.time() - t0,
    }, os.path.join(args.run, "page.pt"))
    print(f"wrote {os.path.relpath(os.path.join(args.run, 'page.pt'), ROOT)} in {time.time() - t0:.0f}s")


def cmd_export(args):
    ckpt = torch.load(os.path.join(args.run, "page.pt"))
    first = torch.load(os.path.join(args.run, "checkpoint.pt"))
    cfg = ckpt["config"]
    torch.manual_seed(cfg["seed"])
    torch.set_num_threads(cfg["threads"])
    data_dir = args.data or os.path.join(ROOT, ckpt["dataDir"])
    data = load_data(data_dir)
    if cfg.get("page_columns"):
        raise SystemExit(f"page_columns {cfg['page_columns']} are an experiment: the runtime does not compute them")
    page = PageData(data_dir, *page_selection(cfg))
    if page.names != ckpt["featureNames"]:
        raise SystemExit("page.f32's feature names differ from the checkpoint's: dump:page and train again")
    clip = cfg["feature_clip"]
    x = standardise(page.x, ckpt["mean"], ckpt["std"], clip)
    xe = standardise(data.edge, first["edgeMean"], first["edgeStd"], first["config"]["feature_clip"])
    members = []
    for result in ckpt["nets"]:
        member = make_unary(x.shape[1], dilations=cfg["unary_dilations"])
        member.load_state_dict(result["state"])
        members.append(member)
    # one net, or the mean of several trained from different seeds (config `ensemble`), exported as one graph
    net = members[0] if len(members) == 1 else GroupedMeanOfNets(members)
    net.eval()
    if len(members) > 1:
        # the grouped graph must be the plain mean of the members (checked on the first val pages)
        for member in members:
            member.eval()
        plain = MeanOfNets(members).eval()
        for p in data.split("val")[:20]:
            xs = x[p.block_offset: p.block_offset + p.n_blocks]
            diff = float(np.abs(page_probabilities(net, xs) - page_probabilities(plain, xs)).max(initial=0.0))
            if diff > 1e-5:
                raise SystemExit(f"grouped page net differs from the mean of its members by {diff} on page {p.id}")
    pairwise = make_pairwise(xe.shape[1])
    pairwise.load_state_dict(first["pairwise"]["state"])
    pairwise.eval()

    # lambda on val (word-F1 proxy): the page net's potentials with the first stage's pairwise net
    val_pages = data.split("val")
    probs = {p.id: (page_probabilities(net, x[p.block_offset: p.block_offset + p.n_blocks]),
                    page_probabilities(pairwise, xe[p.edge_offset: p.edge_offset + p.n_blocks - 1])) for p in val_pages}
    golds = [data.labels[p.block_offset: p.block_offset + p.n_blocks] for p in val_pages]
    words = [data.words[p.block_offset: p.block_offset + p.n_blocks] for p in val_pages]

    def scores(preds):
        return {**block_metrics(np.concatenate(preds), np.concatenate(golds)), **word_f1_proxy(preds, golds, words)}

    unary_only = scores([(probs[p.id][0][:, 1] > probs[p.id][0][:, 0]).astype(np.uint8) for p in val_pages])
    sweep = [{"lambda": lam, **scores([viterbi(*probs[p.id], lam) for p in val_pages])} for lam in cfg["lambdas"]]
    for r in sweep:
        print(f"lambda {r['lambda']:5.2f}: val word-F1 proxy {r['word_f1']:.4f} block F1 {r['f1']:.4f} "
              f"(unary only {unary_only['word_f1']:.4f} / {unary_only['f1']:.4f})")
    if args.lam is not None:
        best = next(r for r in sweep if r["lambda"] == args.lam)
    else:
        best = max(sweep, key=lambda r: (r["word_f1"], -r["lambda"]))
        # A weight on the pairwise net must pay for it: with lambda 0 the pairwise net and the edge features are not
        # computed at all (about 0.5 ms of a ~15 ms extraction, CHANGELOG.md). Below MIN_LAMBDA_GAIN on
        # the proxy (same-config seeds spread by 0.008) the gain is noise, and lambda 0 ships.
        zero = next((r for r in sweep if r["lambda"] == 0), None)
        if zero is not None and best["lambda"] != 0 and best["word_f1"] - zero["word_f1"] < MIN_LAMBDA_GAIN:
            print(f"lambda {best['lambda']} gains {best['word_f1'] - zero['word_f1']:.4f} over lambda 0, "
                  f"under {MIN_LAMBDA_GAIN}: lambda 0")
            best = zero
    lam = best["lambda"]
    print(f"page stage lambda {lam}")

    export_onnx(net, x.shape[1], os.path.join(args.out, f"{args.set}-page.onnx"))
    sidecar_path = os.path.join(args.out, f"{args.set}.json")
    with open(sidecar_path) as f:
        sidecar = json.load(f)
    if sidecar["edgeMean"] != first["edgeMean"]:
        raise SystemExit(f"{sidecar_path} is not the export of {args.run}/checkpoint.pt: export the first stage first")
    sidecar["page"] = {
        "featureSchema": page.index["pageFeatureSchema"],
        "featureNames": page.names,
        "mean": ckpt["mean"],
        "std": ckpt["std"],
        "lambda": lam,
        "input": "page features [1, seq, nPage] float32, standardised like the first stage's (featureClip)",
        "trainingConfig": cfg,
        "firstPass": page.index.get("firstPass"),
        "metrics": {"val": {"pages": len(val_pages), "unaryOnly": unary_only, "viterbi": best, "lambdaSweep": sweep},
                    "training": {"seeds": ckpt["seeds"], "bestSteps": [r["best_step"] for r in ckpt["nets"]],
                                 "stepsRun": [r["steps_run"] for r in ckpt["nets"]],
                                 "trainSeconds": round(ckpt["trainSeconds"], 1)}},
    }
    base_version = sidecar["version"].split("+page")[0]
    # the page net's own bytes name it: a new page stage over the same first stage is a new model version (and a new
    # cache key for the Worker's cached outputs)
    with open(os.path.join(args.out, f"{args.set}-page.onnx"), "rb") as f:
        page_hash = hashlib.sha256(f.read()).hexdigest()[:8]
    sidecar["version"] = f"{base_version}+page-{cfg['name']}-{page_hash}"
    with open(sidecar_path, "w") as f:
        json.dump(sidecar, f, indent=1)
        f.write("\n")

    # golden pages: the page features and PyTorch probabilities of the golden file's pages (same ids)
    golden_path = os.path.join(args.out, f"{args.set}.golden.json")
    with open(golden_path) as f:
        golden = json.load(f)
    by_id = {p.id: p for p in data.pages}
    for g in golden["pages"]:
        pid, _, cut = g["id"].partition("[")
        p = by_id[pid]
        n = g["nBlocks"]
        raw = page.x[p.block_offset: p.block_offset + p.n_blocks][:n]
        # a cut page's page features come from the whole page: still a valid input to check the net with
        pu = page_probabilities(net, standardise(raw, ckpt["mean"], ckpt["std"], clip))
        g["pageFeatures"] = f32(raw)  # [nBlocks, nPage] row-major, raw
        g["page"] = f32(pu)  # [nBlocks, 2]
        g["pageViterbiLabels"] = viterbi(pu, np.asarray(g["pairwise"], dtype=np.float32).reshape(-1, 4), lam).tolist()
    golden["version"] = sidecar["version"]
    golden["pageLambda"] = lam
    with open(golden_path, "w") as f:
        json.dump(golden, f, separators=(",", ":"))
        f.write("\n")

    cmd = ["npx", "--no-install", "tsx", os.path.join("training", "check-parity.ts"), "--dir", args.out, "--set", args.set]
    if subprocess.run(cmd, cwd=ROOT).returncode != 0:
        raise SystemExit(f"parity check failed: {' '.join(cmd)}")
    print(f"exported the page stage of {sidecar['version']} to {os.path.relpath(args.out, ROOT)}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("command", choices=["folds", "train", "export"])
    ap.add_argument("--set", default="pith")
    ap.add_argument("--run", help="run folder (default training/runs/<set>)")
    ap.add_argument("--data", help="dataset folder (default: the run's)")
    ap.add_argument("--models", default=os.path.join(ROOT, "models"), help="folder of the exported first stage")
    ap.add_argument("--out", default=os.path.join(ROOT, "models"), help="export folder (default models/)")
    ap.add_argument("--k", type=int, default=3, help="folds (folds)")
    ap.add_argument("--config", default="page", help="training/config/<name>.py (train)")
    ap.add_argument("--lambda", dest="lam", type=float, help="page-stage lambda instead of the val choice (export)")
    args = ap.parse_args()
    if args.set != "pith":
        raise SystemExit("the page stage is built on the pith feature set")
    args.run = args.run or os.path.join(ROOT, "training", "runs", args.set)
    {"folds": cmd_folds, "train": cmd_train, "export": cmd_export}[args.command](args)


if __name__ == "__main__":
    main()
