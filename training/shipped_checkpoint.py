"""A first-stage run folder from the shipped first stage, to retrain only the page stage over it.

    /usr/bin/python3 training/shipped_checkpoint.py     # models/pith.json + ONNX -> training/runs/pith/checkpoint.pt
                                                        # (and page.pt, the shipped page net)

`training/page.py folds` and `page.py export` read the first stage's run (its config, normalisation and pairwise
net) from training/runs/<set>/checkpoint.pt, which `training/train.py` writes. A fresh checkout has models/ but no
runs: this writes the checkpoint of the shipped first stage from its sidecar (config, feature names, normalisation)
and its ONNX files (the nets' weights, whose initialiser names are the state-dict keys under the export wrapper's
`net.`), so the page stage can be retrained over the shipped first stage instead of a retrained one. The dataset
must have the shipped first stage's feature names (the runtime refuses the model otherwise).
"""

import argparse
import os
import sys

import onnx
import onnx.numpy_helper
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import CONFIG_DEFAULTS, ROOT, Dataset  # noqa: E402
from model import make_pairwise, make_unary  # noqa: E402

import json  # noqa: E402


def state_from_onnx(path, net):
    """The state dict of `net` filled from the initialisers of the exported graph at `path`."""
    weights = {i.name: onnx.numpy_helper.to_array(i) for i in onnx.load(path).graph.initializer}
    state = {}
    for key, value in net.state_dict().items():
        w = weights.get(f"net.{key}")
        if w is None or tuple(w.shape) != tuple(value.shape):
            raise SystemExit(f"{path}: no initialiser net.{key} of shape {tuple(value.shape)}")
        state[key] = torch.from_numpy(w.copy())
    net.load_state_dict(state)
    return state


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--set", default="pith")
    ap.add_argument("--models", default=os.path.join(ROOT, "models"))
    ap.add_argument("--data", help="dataset folder (default training/data/<set>)")
    ap.add_argument("--out", help="run folder (default training/runs/<set>)")
    args = ap.parse_args()
    with open(os.path.join(args.models, f"{args.set}.json")) as f:
        sidecar = json.load(f)
    data_dir = args.data or os.path.join(ROOT, "training", "data", args.set)
    data = Dataset(data_dir)
    if data.unary_names != sidecar["unaryFeatureNames"] or data.edge_names != sidecar["edgeFeatureNames"]:
        raise SystemExit(f"{data_dir} has other feature names than {args.models}/{args.set}.json: dump again")
    unary = make_unary(len(sidecar["unaryFeatureNames"]))
    pairwise = make_pairwise(len(sidecar["edgeFeatureNames"]))
    checkpoint = {
        "config": {**CONFIG_DEFAULTS, **sidecar["trainingConfig"]},
        "featureSet": args.set,
        "dataDir": os.path.relpath(data_dir, ROOT),
        "featureSchema": sidecar["featureSchema"],
        "schemaHash": sidecar["schemaHash"],
        # the data the shipped nets were trained on, not data_dir's
        "dataHash": sidecar["dataHash"],
        "unaryFeatureNames": sidecar["unaryFeatureNames"],
        "edgeFeatureNames": sidecar["edgeFeatureNames"],
        "unaryMean": sidecar["unaryMean"],
        "unaryStd": sidecar["unaryStd"],
        "edgeMean": sidecar["edgeMean"],
        "edgeStd": sidecar["edgeStd"],
        "unary": {"state": state_from_onnx(os.path.join(args.models, f"{args.set}-unary.onnx"), unary)},
        "pairwise": {"state": state_from_onnx(os.path.join(args.models, f"{args.set}-pairwise.onnx"), pairwise)},
        "fromModels": sidecar["version"],
    }
    out_dir = args.out or os.path.join(ROOT, "training", "runs", args.set)
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, "checkpoint.pt")
    torch.save(checkpoint, path)
    print(f"wrote {os.path.relpath(path, ROOT)} from {sidecar['version']}")
    page = sidecar.get("page")
    if page is not None:
        # the shipped page net, for `ablate.py --stage page --drop none` (re-scored on the current page dump)
        # keys the shipped config predates take their defaults (which reproduce it)
        cfg = {**CONFIG_DEFAULTS, **page["trainingConfig"], "page_schema": page["featureSchema"]}
        net = make_unary(len(page["featureNames"]), dilations=cfg["unary_dilations"])
        torch.save({
            "config": cfg, "featureSet": args.set, "dataDir": os.path.relpath(data_dir, ROOT),
            "featureNames": page["featureNames"], "mean": page["mean"], "std": page["std"],
            "nets": [{"state": state_from_onnx(os.path.join(args.models, f"{args.set}-page.onnx"), net)}],
            "seeds": [cfg["seed"]], "fromModels": sidecar["version"],
        }, os.path.join(out_dir, "page.pt"))
        print(f"wrote {os.path.relpath(os.path.join(out_dir, 'page.pt'), ROOT)} (the shipped page net)")


if __name__ == "__main__":
    main()
