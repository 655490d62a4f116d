"""Shared by train.py and export.py: config loading, the dataset written by `npm run dump`, standardisation,
metrics and Viterbi decoding (the same algorithm as src/model/viterbi.ts)."""

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

# log(p) is taken of max(p, LOG_FLOOR) so that a probability that underflowed to 0 stays finite (and 0 * log p
# stays 0 when lambda is 0). Same constant in src/model/viterbi.ts.
LOG_FLOOR = 1e-30


def load_config(name: str) -> dict:
    path = name if name.endswith(".py") else os.path.join(ROOT, "training", "config", name + ".py")
    scope: dict = {}
    with open(path) as f:
        exec(compile(f.read(), path, "exec"), {}, scope)
    missing = [k for k in CONFIG_KEYS if k not in scope]
    if missing:
        raise SystemExit(f"config {path} lacks {missing}")
    cfg = {k: scope[k] for k in CONFIG_KEYS}
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
        self.pages = [
            Page(str(p["id"]), p["split"], p["blockOffset"], p["nBlocks"], p["edgeOffset"]) for p in self.index["pages"]
        ]
        for p in self.pages:
            if p.n_blocks > 0 and p.edge_offset + p.n_blocks - 1 > self.edge.shape[0]:
                raise SystemExit(f"{data_dir}: page {p.id} edges run past edge.f32")
        if not np.all(np.isfinite(self.unary)) or not np.all(np.isfinite(self.edge)):
            raise SystemExit(f"{data_dir}: features contain NaN or infinity: fix the feature code")
        # edge labels 2*y_i + y_{i+1} (pairwiseLabels 00, 01, 10, 11), page by page
        self.edge_labels = np.zeros(self.edge.shape[0], dtype=np.int64)
        for p in self.pages:
            if p.n_blocks > 1:
                y = self.labels[p.block_offset : p.block_offset + p.n_blocks].astype(np.int64)
                self.edge_labels[p.edge_offset : p.edge_offset + p.n_blocks - 1] = 2 * y[:-1] + y[1:]

    def split(self, name: str) -> list:
        return [p for p in self.pages if p.split == name and p.n_blocks > 0]

    def block_rows(self, pages: list) -> np.ndarray:
        return np.concatenate([np.arange(p.block_offset, p.block_offset + p.n_blocks) for p in pages])

    def edge_rows(self, pages: list) -> np.ndarray:
        parts = [np.arange(p.edge_offset, p.edge_offset + p.n_blocks - 1) for p in pages if p.n_blocks > 1]
        return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)


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
    """Pooled (micro) block metrics, positive class = content (spec §13); 0 when a denominator is 0."""
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
        return np.zeros((0, net.convs[-1].out_channels), dtype=np.float32)
    logits = net(torch.from_numpy(np.ascontiguousarray(x.T))[None])  # [1, nClasses, seq]
    return torch.softmax(logits, dim=1)[0].T.contiguous().numpy()
