"""Export a trained run to what the TypeScript runtime loads, choose lambda on validation, check parity.

    /usr/bin/python3 training/export.py --set pith            # training/runs/pith/checkpoint.pt -> models/

writes, for <set> in {pith, paper}:
    models/<set>-unary.onnx     input "features" [1, seq, nUnary] float32 (standardised), output "probabilities"
    models/<set>-pairwise.onnx  [1, seq, 2] / [1, seq, 4] float32 (softmax); seq is dynamic; opset 17
    models/<set>.json           the sidecar: feature names, normalisation, lambda, labels, config, hashes, metrics
    models/<set>.golden.json    a few validation pages: raw features and the PyTorch outputs, for the parity tests

Decoding (docs/design.md, Decoding): the validation pages are decoded with Viterbi for every lambda of the config; the lambda with
the best pooled block F1 (config select_metric 'block_f1') or the best macro word-F1 proxy (common.word_f1_proxy,
'word_f1') goes into the sidecar (ties: the smaller lambda), next to the unary-only scores. `--lambda L` puts L
in the sidecar instead, e.g. the best of `npx tsx eval/sweep-lambda.ts` (the benchmark's word-F1); 0 = unary only.
Parity: onnxruntime-web, run from Node through the real runtime code (training/check-parity.ts), must reproduce
the PyTorch probabilities of the golden pages within 1e-5, or the export fails.
"""

import argparse
import datetime
import json
import os
import subprocess
import sys

import numpy as np
import onnx
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import ROOT, Dataset, block_metrics, page_probabilities, standardise, viterbi, word_f1_proxy  # noqa: E402
from model import ExportWrapper, make_pairwise, make_unary  # noqa: E402

TOLERANCE = 1e-5


def f32(a: np.ndarray) -> list:
    """Float32 values as the shortest decimals that read back to the same float32 (keeps the golden file small)."""
    return [float(repr(v)) for v in np.asarray(a, dtype=np.float32).ravel()]


def export_onnx(net, n_features: int, path: str) -> None:
    net.eval()
    dummy = torch.zeros(1, 16, n_features)  # [1, seq, nFeatures]
    torch.onnx.export(
        ExportWrapper(net), dummy, path, input_names=["features"], output_names=["probabilities"],
        dynamic_axes={"features": {1: "seq"}, "probabilities": {1: "seq"}}, opset_version=17,
    )
    onnx.checker.check_model(onnx.load(path))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--set", default="pith")
    ap.add_argument("--run", help="run folder with checkpoint.pt (default training/runs/<set>)")
    ap.add_argument("--data", help="dataset folder (default: the one the run was trained on)")
    ap.add_argument("--out", default=os.path.join(ROOT, "models"), help="output folder (default models/)")
    ap.add_argument("--lambda", dest="lam", type=float,
                    help="lambda for the sidecar instead of the sweep's choice (chosen on the benchmark's word-F1)")
    args = ap.parse_args()

    run_dir = args.run or os.path.join(ROOT, "training", "runs", args.set)
    ckpt_path = os.path.join(run_dir, "checkpoint.pt")
    if not os.path.exists(ckpt_path):
        raise SystemExit(f"{ckpt_path} not found: run `training/train.py --set {args.set}` first")
    ckpt = torch.load(ckpt_path)
    cfg = ckpt["config"]
    cfg.setdefault("select_metric", "block_f1")
    if ckpt["featureSet"] != args.set:
        raise SystemExit(f"{ckpt_path} was trained on feature set {ckpt['featureSet']!r}, not {args.set!r}")
    torch.manual_seed(cfg["seed"])
    torch.set_num_threads(cfg["threads"])

    data = Dataset(args.data or os.path.join(ROOT, ckpt["dataDir"]))
    if data.unary_names != ckpt["unaryFeatureNames"] or data.edge_names != ckpt["edgeFeatureNames"]:
        raise SystemExit("the dataset's feature names differ from the checkpoint's: dump and train again")
    clip = cfg["feature_clip"]
    x = standardise(data.unary, ckpt["unaryMean"], ckpt["unaryStd"], clip)  # [totalBlocks, nU]
    xe = standardise(data.edge, ckpt["edgeMean"], ckpt["edgeStd"], clip)  # [totalEdges, nE]

    unary = make_unary(x.shape[1], dilations=cfg.get("unary_dilations"))
    unary.load_state_dict(ckpt["unary"]["state"])
    pairwise = make_pairwise(xe.shape[1])
    pairwise.load_state_dict(ckpt["pairwise"]["state"])
    unary.eval()
    pairwise.eval()

    # --- validation probabilities, unary-only vs Viterbi, lambda sweep
    val_pages = data.split("val")
    probs = {}
    for p in val_pages:
        pu = page_probabilities(unary, x[p.block_offset : p.block_offset + p.n_blocks])  # [n, 2]
        pe = page_probabilities(pairwise, xe[p.edge_offset : p.edge_offset + p.n_blocks - 1])  # [n-1, 4]
        probs[p.id] = (pu, pe)
    gold = np.concatenate([data.labels[p.block_offset : p.block_offset + p.n_blocks] for p in val_pages])
    words = None if data.words is None else [data.words[p.block_offset : p.block_offset + p.n_blocks] for p in val_pages]
    golds = [data.labels[p.block_offset : p.block_offset + p.n_blocks] for p in val_pages]

    def scores(preds: list) -> dict:
        m = block_metrics(np.concatenate(preds), gold)
        if words is not None:
            m["word_f1"] = word_f1_proxy(preds, golds, words)["word_f1"]
        return m

    unary_only = scores([(probs[p.id][0][:, 1] > probs[p.id][0][:, 0]).astype(np.uint8) for p in val_pages])
    sweep = []
    for lam in sorted(set(cfg["lambdas"]) | ({args.lam} if args.lam is not None else set())):
        sweep.append({"lambda": lam, **scores([viterbi(*probs[p.id], lam) for p in val_pages])})
        print(f"lambda {lam:5.2f}: val block F1 {sweep[-1]['f1']:.4f} (unary-only {unary_only['f1']:.4f}), "
              f"word-F1 proxy {sweep[-1].get('word_f1', float('nan')):.4f} (unary-only "
              f"{unary_only.get('word_f1', float('nan')):.4f})")
    key = "word_f1" if cfg["select_metric"] == "word_f1" and words is not None else "f1"
    if args.lam is not None:
        best = next(r for r in sweep if r["lambda"] == args.lam)
        chosen_by = "--lambda (benchmark word-F1, eval/sweep-lambda.ts)"
    else:
        best = max(sweep, key=lambda r: (r[key], -r["lambda"]))
        chosen_by = {"f1": "val block F1", "word_f1": "val word-F1 proxy"}[key]
    lam = best["lambda"]
    edge_gold = np.concatenate([data.edge_labels[p.edge_offset : p.edge_offset + p.n_blocks - 1] for p in val_pages])
    edge_pred = np.concatenate([np.argmax(probs[p.id][1], axis=1) for p in val_pages if p.n_blocks > 1])
    pairwise_acc = float(np.mean(edge_pred == edge_gold)) if edge_gold.size else 0.0
    print(f"chosen lambda {lam} ({chosen_by}): Viterbi F1 {best['f1']:.4f} vs unary-only {unary_only['f1']:.4f}; "
          f"pairwise accuracy {pairwise_acc:.4f}")

    # --- ONNX
    os.makedirs(args.out, exist_ok=True)
    export_onnx(unary, x.shape[1], os.path.join(args.out, f"{args.set}-unary.onnx"))
    export_onnx(pairwise, xe.shape[1], os.path.join(args.out, f"{args.set}-pairwise.onnx"))

    # --- sidecar
    now = datetime.datetime.now(datetime.timezone.utc)
    data_hash = data.index.get("dataHash") or ""
    version = f"{args.set}-{cfg['name']}-{now:%Y%m%d}-{data_hash[:8]}"
    sidecar = {
        "version": version,
        "featureSet": args.set,
        "featureSchema": data.index.get("featureSchema"),
        "schemaHash": data.index.get("schemaHash"),
        "unaryFeatureNames": data.unary_names,
        "edgeFeatureNames": data.edge_names,
        "unaryMean": ckpt["unaryMean"],
        "unaryStd": ckpt["unaryStd"],
        "edgeMean": ckpt["edgeMean"],
        "edgeStd": ckpt["edgeStd"],
        "featureClip": clip,
        "lambda": lam,
        "labels": {"0": "boilerplate", "1": "content"},
        "pairwiseLabels": ["00", "01", "10", "11"],
        "input": "features [1, seq, nFeatures] float32, standardised: clip((x - mean) / std, -featureClip, featureClip)",
        "output": "probabilities [1, seq, 2] (unary) or [1, seq, 4] (pairwise, index 2*y_i + y_{i+1})",
        "trainingConfig": cfg,
        "dataHash": data_hash,
        "metrics": {
            "val": {
                "pages": len(val_pages),
                "blocks": int(gold.size),
                "unaryOnly": unary_only,
                "viterbi": best,
                "lambdaChosenBy": chosen_by,
                "lambdaSweep": sweep,
                "pairwiseAccuracy": pairwise_acc,
            },
            "training": {
                "trainPages": ckpt["trainPages"],
                "unaryBestStep": ckpt["unary"]["best_step"],
                "unaryStepsRun": ckpt["unary"]["steps_run"],
                "pairwiseBestStep": ckpt["pairwise"]["best_step"],
                "pairwiseStepsRun": ckpt["pairwise"]["steps_run"],
                "trainSeconds": round(ckpt["trainSeconds"], 1),
                "cleaning": ckpt.get("cleaning"),
            },
        },
        "createdAt": now.isoformat(timespec="seconds"),
    }
    with open(os.path.join(args.out, f"{args.set}.json"), "w") as f:
        json.dump(sidecar, f, indent=1)
        f.write("\n")

    # --- golden file: a few mid-sized validation pages, plus 1- and 2-block pages cut from the first one
    candidates = sorted((p for p in val_pages if 20 <= p.n_blocks <= 80), key=lambda p: p.id)
    if len(candidates) < cfg["golden_pages"]:
        candidates = sorted(val_pages, key=lambda p: -p.n_blocks)[: cfg["golden_pages"]]
    step = max(1, len(candidates) // cfg["golden_pages"])
    chosen = candidates[::step][: cfg["golden_pages"]]
    cases = [(p.id, data.unary[p.block_offset : p.block_offset + p.n_blocks],
              data.edge[p.edge_offset : p.edge_offset + p.n_blocks - 1]) for p in chosen]
    first_id, first_u, first_e = cases[0]
    cases += [(f"{first_id}[:1]", first_u[:1], first_e[:0]), (f"{first_id}[:2]", first_u[:2], first_e[:1])]
    golden_pages = []
    for pid, raw_u, raw_e in cases:
        pu = page_probabilities(unary, standardise(raw_u, ckpt["unaryMean"], ckpt["unaryStd"], clip))
        pe = page_probabilities(pairwise, standardise(raw_e, ckpt["edgeMean"], ckpt["edgeStd"], clip))
        golden_pages.append({
            "id": pid,
            "nBlocks": int(raw_u.shape[0]),
            "unaryFeatures": f32(raw_u),  # [nBlocks, nUnary] row-major, raw (unstandardised)
            "edgeFeatures": f32(raw_e),  # [nBlocks - 1, nEdge] row-major, raw
            "unary": f32(pu),  # [nBlocks, 2] PyTorch probabilities
            "pairwise": f32(pe),  # [nBlocks - 1, 4]
            "viterbiLabels": viterbi(pu, pe, lam).tolist(),  # at the sidecar's lambda
        })
    golden = {"version": version, "featureSet": args.set, "lambda": lam, "tolerance": TOLERANCE, "pages": golden_pages}
    with open(os.path.join(args.out, f"{args.set}.golden.json"), "w") as f:
        json.dump(golden, f, separators=(",", ":"))
        f.write("\n")

    # --- parity: onnxruntime-web from Node, through src/core/model (the code that ships)
    cmd = ["npx", "--no-install", "tsx", os.path.join("training", "check-parity.ts"), "--dir", args.out, "--set", args.set]
    result = subprocess.run(cmd, cwd=ROOT)
    if result.returncode != 0:
        raise SystemExit(f"parity check failed: {' '.join(cmd)}")
    print(f"exported {version} to {os.path.relpath(args.out, ROOT)}")


if __name__ == "__main__":
    main()
