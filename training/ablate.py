"""Feature ablations on the validation split (issue 10): retrain a unary net with groups of features removed and
compare the val word-F1 proxy (common.word_f1_proxy, unary argmax), overall and per page type.

    /usr/bin/python3 training/ablate.py --stage first --drop none         # the shipped first stage, re-scored
    /usr/bin/python3 training/ablate.py --stage page --drop none          # the shipped page net, re-scored
    /usr/bin/python3 training/ablate.py --stage page --drop region        # page net without region/section features

The first stage's visibility and comment groups (schema pith-2) were ablated this way (their rows in
training/reports/ablations.jsonl): without them the val proxy rose from 0.855 to 0.861 and no page type lost, so
schema pith-3 dropped them from the feature code. The first stage has no group left to ablate.

A removed feature is set to 0 after standardisation (its training mean) for training and validation alike, so the
net cannot use it; everything else (config, seed, pages) is the shipped run's. `--drop none` trains nothing: it
scores the shipped checkpoint. Results are appended to training/reports/ablations.jsonl.
"""

import argparse
import json
import os
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import ROOT, Dataset, block_metrics, load_config, mean_std, page_probabilities, seed_everything, standardise, word_f1_proxy  # noqa: E402
from model import make_unary  # noqa: E402
from train import train_net  # noqa: E402
from page import TrainingSet, load_page_data  # noqa: E402

GROUPS = {
    "first": {},
    "page": {
        "region": ["in_region", "before_region", "region_block_distance", "log(region_block_distance)",
                   "log(region_hops)", "region_content_share", "region_word_share", "region_span", "in_region80",
                   "log(region80_hops)", "parent_mean_p", "gp_mean_p", "ggp_mean_p", "parent_content_share",
                   "gp_content_share", "ggp_content_share"],
        "windows": ["window_mean_p_2", "window_mean_p_5", "window_mean_p_15", "window_mean_p_50", "window_max_p_5",
                    "window_kept_share_10"],
        "repeat": ["log(sibling_repeat)", "class_path_mean_p", "near_duplicate", "duplicate_p_gain"],
        "declares": ["declares_article", "declares_product", "declares_discussion", "declares_listing"],
        "comments": ["in_comment_section", "page_comment_word_share", "first_cls_comment"],
        # schema page-4 (issue 34)
        "links": ["link_internal", "link_article_path", "link_headline", "parent_article_link_share",
                  "gp_article_link_share", "ggp_article_link_share", "log(ggp_article_links)",
                  "page_article_link_word_share"],
        "anchor": ["anchor_found", "anchor_offset", "log(anchor_distance)", "after_anchor", "anchor_to_region_end",
                   "past_region_end", "anchor_in_region"],
        # schema page-5 (issue 34): topical coherence
        "topic": ["topic_block_sim", "topic_parent_sim", "topic_gp_sim", "topic_ggp_sim", "topic_parent_mean",
                  "topic_ggp_mean", "title_parent_sim", "title_gp_sim", "title_ggp_sim", "page_topic_spread",
                  "page_content_topic_sim", "page_content_title_sim"],
        "topic_loo": ["topic_parent_sim", "topic_gp_sim", "topic_ggp_sim"],
        "topic_title": ["title_parent_sim", "title_gp_sim", "title_ggp_sim", "page_content_title_sim"],
        "topic_page": ["page_topic_spread", "page_content_topic_sim", "page_content_title_sim"],
    },
}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--stage", choices=["first", "page"], required=True)
    ap.add_argument("--drop", default="none", help="comma-separated groups, or none")
    ap.add_argument("--config", help="page stage: train with training/config/<name>.py instead of the shipped run's "
                                     "config (its extra_data and page_type_weight included); --drop none then trains too")
    ap.add_argument("--seed", type=int, help="page stage with --config: train from this seed instead of the config's")
    ap.add_argument("--tag", default="", help="a label for the report line")
    ap.add_argument("--extra-val", action="append", default=[],
                    help="page stage: also score the val pages of training/data/<name>/ (e.g. pith-readability-val)")
    args = ap.parse_args()
    run = os.path.join(ROOT, "training", "runs", "pith")
    data_dir = os.path.join(ROOT, "training", "data", "pith")
    data = Dataset(data_dir)
    page_type = {str(p["id"]): p["pageType"] for p in data.index["pages"]}
    if args.stage == "first":
        ckpt = torch.load(os.path.join(run, "checkpoint.pt"))
        cfg, names, raw = ckpt["config"], data.unary_names, data.unary
        mean, std, state = ckpt["unaryMean"], ckpt["unaryStd"], ckpt["unary"]["state"]
        train_data, sample_weight = data, None
    else:
        if args.config:
            cfg, mean, std, state = load_config(args.config), None, None, None
            if args.seed is not None:
                cfg["seed"] = args.seed
        else:
            ckpt = torch.load(os.path.join(run, "page.pt"))
            cfg, mean, std, state = ckpt["config"], ckpt["mean"], ckpt["std"], ckpt["nets"][0]["state"]  # the first seed
        train_data = TrainingSet(cfg, data_dir)
        names, raw = train_data.names, train_data.x
        if args.config:  # the standardisation of that training set, as page.py train computes it
            mean, std = mean_std(raw[train_data.block_rows(train_data.split("train"))])
        sample_weight = train_data.sample_weight(cfg)
    x = standardise(raw, mean, std, cfg["feature_clip"])
    drop = [] if args.drop == "none" else args.drop.split(",")
    cols = []
    for g in drop:
        if g not in GROUPS[args.stage]:
            raise SystemExit(f"unknown group {g!r} for stage {args.stage}: {sorted(GROUPS[args.stage])}")
        cols += [names.index(n) for n in GROUPS[args.stage][g]]
    train_pages, val_pages = train_data.split("train"), train_data.split("val")
    t0 = time.time()
    if cols or args.config:
        x[:, cols] = 0.0
        rng = seed_everything(cfg["seed"], cfg["threads"])
        state = train_net("unary", cfg, train_data, train_pages, val_pages, x, None, rng, sample_weight=sample_weight)["state"]
    net = make_unary(x.shape[1], dilations=cfg["unary_dilations"])
    net.load_state_dict(state)
    net.eval()
    preds, golds, words, types, precision = [], [], [], [], {}
    for p in val_pages:
        prob = page_probabilities(net, x[p.block_offset: p.block_offset + p.n_blocks])
        preds.append((prob[:, 1] > prob[:, 0]).astype(np.uint8))
        golds.append(data.labels[p.block_offset: p.block_offset + p.n_blocks])
        words.append(data.words[p.block_offset: p.block_offset + p.n_blocks])
        types.append(page_type[p.id])
    result = {"stage": args.stage, "drop": args.drop, "config": args.config or cfg.get("name"), "tag": args.tag,
              "settings": {k: cfg.get(k) for k in ("seed", "page_schema", "extra_data", "page_type_weight", "page_columns")},
              "features": x.shape[1] - len(cols),
              "wordF1": word_f1_proxy(preds, golds, words)["word_f1"],
              "blockF1": block_metrics(np.concatenate(preds), np.concatenate(golds))["f1"], "byType": {}}
    for t in sorted(set(types)):
        idx = [i for i, u in enumerate(types) if u == t]
        result["byType"][t] = round(word_f1_proxy([preds[i] for i in idx], [golds[i] for i in idx], [words[i] for i in idx])["word_f1"], 4)
        # macro word precision of the type's pages (a page that keeps nothing counts 1)
        ps = []
        for i in idx:
            pr, g, w = preds[i].astype(bool), golds[i].astype(bool), words[i].astype(np.float64)
            kept = w[pr].sum()
            ps.append(w[pr & g].sum() / kept if kept > 0 else 1.0)
        precision[t] = round(float(np.mean(ps)), 4)
    result["precisionByType"] = precision
    for name in args.extra_val:
        if args.stage != "page":
            raise SystemExit("--extra-val scores the page stage")
        extra, extra_page = load_page_data(os.path.join(ROOT, "training", "data", name), cfg)
        if extra_page.names != names:
            raise SystemExit(f"{name}: other page features: dump:page it again")
        xv = standardise(extra_page.x, mean, std, cfg["feature_clip"])
        xv[:, cols] = 0.0
        ev = extra.split("val")
        ep = []
        for p in ev:
            prob = page_probabilities(net, xv[p.block_offset: p.block_offset + p.n_blocks])
            ep.append((prob[:, 1] > prob[:, 0]).astype(np.uint8))
        result[f"wordF1 {name}"] = word_f1_proxy(ep, [extra.labels[p.block_offset: p.block_offset + p.n_blocks] for p in ev],
                                                 [extra.words[p.block_offset: p.block_offset + p.n_blocks] for p in ev])["word_f1"]
    result["seconds"] = round(time.time() - t0)
    print(json.dumps(result))
    with open(os.path.join(ROOT, "training", "reports", "ablations.jsonl"), "a") as f:
        f.write(json.dumps(result) + "\n")


if __name__ == "__main__":
    main()
