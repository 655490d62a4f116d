"""Shared by train.py and export.py: config loading, the dataset written by `npm run dump`, standardisation,
metrics and Viterbi decoding (the same algorithm as src/core/decode/viterbi.ts)."""

import json
import os
import random
from dataclasses import dataclass

import numpy as np
import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONFIG_KEYS = (
    "seed threads batch_size patch_size patch_context lr max_steps eval_every patience dropout l2 unary_class_weight "
    "pairwise_class_weight "
    "feature_clip lambdas golden_pages"
).split()
# keys a config may leave out (older configs, the paper baseline): their defaults reproduce the earlier behaviour
CONFIG_DEFAULTS = {
    "block_weight": "none",  # unary loss weight per block from its word count: none | log_words | sqrt_words | words
    "select_metric": "block_f1",  # checkpoint and lambda choice on val: block_f1 (pooled) | word_f1 (macro proxy)
    "noisy_blocks": None,  # .npz from training/label_noise.py: train blocks to drop from / relabel in the loss
    "noisy_action": "drop",  # drop (unary loss weight 0) | relabel (flip the train label; edge labels follow)
    "ensemble": 1,  # page stage: nets trained from seeds seed, seed + 1, ...; the exported net is their mean
    "first_extra_data": [],  # first stage: more training dumps (training/data/<name>/), their train pages only
    "first_type_weight": {},  # first stage: unary loss weight per block by its page's type, e.g. {"article": 2.0}
    "extra_data": [],  # page stage: more training dumps (training/data/<name>/, e.g. pith-readability), train pages only
    "page_type_weight": {},  # page stage: unary loss weight per block by its page's type, e.g. {"article": 2.0}; else 1
    "page_schema": None,  # page stage: the page features of this schema (a prefix of the dump's); None: the dump's own
    "page_columns": [],
    "unary_dilations": None,  # unary net: one dilation per layer (model.py), e.g. [1, 1, 1, 2, 4]; None: all 1  # page stage, experiments: per-block columns beside the dump (<name>.f32 + <name>.json)
}

# log(p) is taken of max(p, LOG_FLOOR) so that a probability that underflowed to 0 stays finite (and 0 * log p
# stays 0 when lambda is 0). Same constant in src/core/decode/viterbi.ts.
LOG_FLOOR = 1e-30


def _config_path(name: str) -> str:
    return name if name.endswith(".py") else os.path.join(ROOT, "training", "config", name + ".py")


def _config_values(path: str, seen: tuple = ()) -> dict:
    """The names a config file sets; `base = '<name>'` in it means: start from that config and override."""
    if path in seen:
        raise SystemExit(f"config {path}: its bases form a cycle ({' -> '.join(seen + (path,))})")
    scope: dict = {}
    with open(path) as f:
        exec(compile(f.read(), path, "exec"), {}, scope)
    base = scope.pop("base", None)
    if base is None:
        return scope
    values = _config_values(_config_path(base), seen + (path,))
    values.update(scope)
    return values


def load_config(name: str) -> dict:
    path = _config_path(name)
    scope = _config_values(path)
    missing = [k for k in CONFIG_KEYS if k not in scope]
    if missing:
        raise SystemExit(f"config {path} lacks {missing}")
    cfg = {k: scope[k] for k in CONFIG_KEYS}
    for k, v in CONFIG_DEFAULTS.items():
        cfg[k] = scope.get(k, v)
    if cfg["select_metric"] not in ("block_f1", "word_f1"):
        raise SystemExit(f"select_metric must be 'block_f1' or 'word_f1', not {cfg['select_metric']!r}")
    if cfg["noisy_action"] not in ("drop", "relabel"):
        raise SystemExit(f"noisy_action must be 'drop' or 'relabel', not {cfg['noisy_action']!r}")
    cfg["name"] = os.path.splitext(os.path.basename(path))[0]
    return cfg


def seed_everything(seed: int, threads: int) -> np.random.Generator:
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    torch.use_deterministic_algorithms(True)
    return np.random.default_rng(seed)


@dataclass
class Page:
    id: str
    split: str
    block_offset: int
    n_blocks: int
    edge_offset: int


class Dataset:
    """training/data/<set>/: unary.f32 [totalBlocks, nU], edge.f32 [totalEdges, nE], labels.u8 [totalBlocks],
    words.u32 [totalBlocks] (word counts as the benchmark tokenises; None in dumps older than it),
    index.json (feature names, hashes, pages with offsets and split)."""

    def __init__(self, data_dir: str):
        index_path = os.path.join(data_dir, "index.json")
        if not os.path.exists(index_path):
            raise SystemExit(f"{index_path} not found: run `npm run dump -- --set <set>` first")
        with open(index_path) as f:
            self.index = json.load(f)
        self.unary_names = self.index["unaryFeatureNames"]
        self.edge_names = self.index["edgeFeatureNames"]
        nu, ne = len(self.unary_names), len(self.edge_names)
        self.unary = np.fromfile(os.path.join(data_dir, "unary.f32"), dtype="<f4").reshape(-1, nu)  # [totalBlocks, nU]
        self.edge = np.fromfile(os.path.join(data_dir, "edge.f32"), dtype="<f4").reshape(-1, ne)  # [totalEdges, nE]
        self.labels = np.fromfile(os.path.join(data_dir, "labels.u8"), dtype=np.uint8)  # [totalBlocks]
        if self.labels.shape[0] != self.unary.shape[0]:
            raise SystemExit(f"{data_dir}: {self.labels.shape[0]} labels but {self.unary.shape[0]} unary rows")
        words_path = os.path.join(data_dir, "words.u32")
        self.words = np.fromfile(words_path, dtype="<u4") if os.path.exists(words_path) else None  # [totalBlocks]
        if self.words is not None and self.words.shape[0] != self.labels.shape[0]:
            raise SystemExit(f"{data_dir}: words.u32 has {self.words.shape[0]} rows, labels {self.labels.shape[0]}")
        self.pages = [
            Page(str(p["id"]), p["split"], p["blockOffset"], p["nBlocks"], p["edgeOffset"]) for p in self.index["pages"]
        ]
        for p in self.pages:
            if p.n_blocks > 0 and p.edge_offset + p.n_blocks - 1 > self.edge.shape[0]:
                raise SystemExit(f"{data_dir}: page {p.id} edges run past edge.f32")
        if not np.all(np.isfinite(self.unary)) or not np.all(np.isfinite(self.edge)):
            raise SystemExit(f"{data_dir}: features contain NaN or infinity: fix the feature code")
        # edge labels 2*y_i + y_{i+1} (pairwiseLabels 00, 01, 10, 11), page by page
        self.edge_labels = edge_labels_of(self.labels, self.pages, self.edge.shape[0])

    def with_extra(self, extra_dirs: list) -> "Dataset":
        """This dataset followed by the train pages of other dumps of the same features (config `first_extra_data`):
        their blocks and edges appended, their pages' offsets shifted; their other pages are split 'extra', which
        nothing trains or validates on. The index stays this dataset's. `self` is not changed."""
        if not extra_dirs:
            return self
        out = object.__new__(Dataset)
        out.index, out.unary_names, out.edge_names = self.index, self.unary_names, self.edge_names
        unary, edge, labels, words, pages = [self.unary], [self.edge], [self.labels], [self.words], list(self.pages)
        kinds = {str(p["id"]): p.get("pageType") for p in self.index["pages"]}
        n_blocks, n_edges = self.unary.shape[0], self.edge.shape[0]
        for d in extra_dirs:
            extra = Dataset(d)
            if extra.unary_names != self.unary_names or extra.edge_names != self.edge_names:
                raise SystemExit(f"{d}: other features than the main dump: dump both again")
            for p in extra.index["pages"]:
                kinds[f"{os.path.basename(d)}:{p['id']}"] = p.get("pageType")
            for p in extra.pages:
                split = p.split if p.split == "train" else "extra"
                pages.append(Page(f"{os.path.basename(d)}:{p.id}", split, p.block_offset + n_blocks, p.n_blocks,
                                  p.edge_offset + n_edges))
            unary.append(extra.unary)
            edge.append(extra.edge)
            labels.append(extra.labels)
            words.append(extra.words)
            n_blocks += extra.unary.shape[0]
            n_edges += extra.edge.shape[0]
        out.unary, out.edge, out.labels = np.concatenate(unary), np.concatenate(edge), np.concatenate(labels)
        out.words = None if any(w is None for w in words) else np.concatenate(words)
        out.pages, out.page_types = pages, kinds
        out.edge_labels = edge_labels_of(out.labels, out.pages, out.edge.shape[0])
        return out

    def require_words(self, why: str) -> np.ndarray:
        if self.words is None:
            raise SystemExit(f"{why} needs words.u32 in the dataset: run `npm run dump` again")
        return self.words

    def split(self, name: str) -> list:
        return [p for p in self.pages if p.split == name and p.n_blocks > 0]

    def block_rows(self, pages: list) -> np.ndarray:
        return np.concatenate([np.arange(p.block_offset, p.block_offset + p.n_blocks) for p in pages])

    def edge_rows(self, pages: list) -> np.ndarray:
        parts = [np.arange(p.edge_offset, p.edge_offset + p.n_blocks - 1) for p in pages if p.n_blocks > 1]
        return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)


def edge_labels_of(labels: np.ndarray, pages: list, n_edges: int) -> np.ndarray:
    """Edge labels 2*y_i + y_{i+1} (pairwiseLabels 00, 01, 10, 11), page by page. -> int64 [n_edges]"""
    out = np.zeros(n_edges, dtype=np.int64)
    for p in pages:
        if p.n_blocks > 1:
            y = labels[p.block_offset : p.block_offset + p.n_blocks].astype(np.int64)
            out[p.edge_offset : p.edge_offset + p.n_blocks - 1] = 2 * y[:-1] + y[1:]
    return out


def mean_std(x: np.ndarray) -> tuple:
    """Column mean and std in float64; a constant column gets std 1 (as the TS runtime does for std 0)."""
    mean = x.astype(np.float64).mean(axis=0)
    std = x.astype(np.float64).std(axis=0)
    std[std == 0] = 1.0
    return mean, std


def standardise(x: np.ndarray, mean, std, clip: float) -> np.ndarray:
    """(x - mean) / std in float64, clipped, then rounded once to float32: bit-identical to the TS runtime."""
    z = (x.astype(np.float64) - np.asarray(mean, dtype=np.float64)) / np.asarray(std, dtype=np.float64)
    if clip > 0:
        z = np.clip(z, -clip, clip)
    return z.astype(np.float32)


def block_metrics(pred: np.ndarray, gold: np.ndarray) -> dict:
    """Pooled (micro) block metrics, positive class = content (docs/design.md, Evaluation metrics); 0 when a denominator is 0."""
    pred = pred.astype(bool)
    gold = gold.astype(bool)
    tp = int(np.sum(pred & gold))
    fp = int(np.sum(pred & ~gold))
    fn = int(np.sum(~pred & gold))
    n = int(pred.shape[0])
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    accuracy = (n - fp - fn) / n if n else 0.0
    return {"accuracy": accuracy, "precision": precision, "recall": recall, "f1": f1, "blocks": n}


def word_f1_proxy(preds: list, golds: list, words: list) -> dict:
    """Macro word-F1 over pages computed from block labels: a block counts with its word count, the gold text is
    the words of the gold content blocks. Same conventions as dev/score.ts (empty gold: 1 if the prediction is
    empty, else 0; empty prediction: 0). It ignores what the alignment missed, so it reads a little above the
    benchmark's word-F1, but it ranks models and lambdas the same way far better than block F1 does."""
    scores = []
    for pred, gold, w in zip(preds, golds, words):
        pred, gold, w = pred.astype(bool), gold.astype(bool), w.astype(np.float64)
        tp, fp, fn = w[pred & gold].sum(), w[pred & ~gold].sum(), w[~pred & gold].sum()
        if tp + fn == 0:
            scores.append(1.0 if tp + fp == 0 else 0.0)
        elif tp + fp == 0 or tp == 0:
            scores.append(0.0)
        else:
            p, r = tp / (tp + fp), tp / (tp + fn)
            scores.append(2 * p * r / (p + r))
    return {"word_f1": float(np.mean(scores)) if scores else 0.0, "pages": len(scores)}


def viterbi(unary: np.ndarray, pairwise: np.ndarray, lam: float) -> np.ndarray:
    """unary: [n, 2] probabilities, pairwise: [n-1, 4] probabilities (index 2a+b) -> labels [n] maximising
    sum log unary + lam * sum log pairwise. Backward recursion as in the reference; ties go to 0."""
    n = unary.shape[0]
    if n == 0:
        return np.zeros(0, dtype=np.uint8)
    lu = np.log(np.maximum(unary.astype(np.float64), LOG_FLOOR))  # [n, 2]
    le = np.log(np.maximum(pairwise.astype(np.float64), LOG_FLOOR)).reshape(-1, 2, 2)  # [n-1, a, b]
    best = lu[n - 1].copy()  # P[n-1]
    choice = np.zeros((max(n - 1, 0), 2), dtype=np.int64)
    for i in range(n - 2, -1, -1):
        scores = lam * le[i] + best[None, :]  # [a, b]
        choice[i] = np.argmax(scores, axis=1)  # first index on ties -> 0
        best = lu[i] + scores[np.arange(2), choice[i]]
    y = np.zeros(n, dtype=np.uint8)
    y[0] = int(np.argmax(best))
    for i in range(n - 1):
        y[i + 1] = choice[i, y[i]]
    return y


@torch.no_grad()
def page_probabilities(net, x: np.ndarray) -> np.ndarray:
    """Run a net over one whole page. x: [seq, nFeatures] standardised -> probabilities [seq, nClasses]."""
    if x.shape[0] == 0:
        # a mean of nets (model.py) names its classes; a single net's last layer has one channel per class
        return np.zeros((0, getattr(net, "n_classes", None) or net.convs[-1].out_channels), dtype=np.float32)
    logits = net(torch.from_numpy(np.ascontiguousarray(x.T))[None])  # [1, nClasses, seq]
    return torch.softmax(logits, dim=1)[0].T.contiguous().numpy()
