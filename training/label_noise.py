"""Label noise in the aligned block labels (training/reports/label-noise.md): Dataset Cartography and PVI on the unary net.

    /usr/bin/python3 training/train.py --set pith --config default --dynamics --out training/runs/pith-dynamics
    /usr/bin/python3 training/label_noise.py --run training/runs/pith-dynamics
    -> training/runs/pith-dynamics/noisy-blocks.npz   (rows of the hard-to-learn train blocks, for `noisy_blocks`)
       training/reports/label-noise.md                 (counts, thresholds, worst pages, a categorised sample)

Per training block, from <run>/dynamics.npz (p of the gold label at every unary evaluation, whole-page inference,
train.py --dynamics):
- confidence = mean p(gold), variability = std p(gold), correctness = share of evaluations with p(gold) > 0.5
  (Swayamdipta et al. 2020, evaluation points instead of epochs);
- PVI = log2 p(y|x) - log2 p(y|null), p(y|x) from the kept checkpoint, the null model trained on empty input with
  the same loss: a constant predictor, whose optimum under the (class x block) weighted cross-entropy is the weighted
  class share (0.5 / 0.5 under balanced class weights and no block weights); the plain label prior is shown too.
Hard-to-learn = confidence < --max-confidence and variability < --max-variability: the net consistently says the
other label. The sample's texts come from parsing the pages again (src/core) with the ground truth beside them; the
categories in SAMPLE_NOTES were assigned by reading them (re-running with other data re-samples: notes of blocks not
sampled are ignored, new ones are listed as "not looked at").
"""

import argparse
import json
import os
import subprocess
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import ROOT, Dataset, load_config  # noqa: E402

# (page id, block index) -> (category, note): assigned by reading each sampled block with its neighbours and the page's
# ground truth (2026-11-30, sample of the default config's run). Categories:
#   ground-truth omission   real main content that the annotator's ground truth leaves out: the label 0 is "right"
#                           by the alignment, wrong for the page
#   alignment miss          the text is in the ground truth but the block was labelled 0 (or the reverse)
#   ambiguous boilerplate   the annotation scope decides (FAQ on a product page, badges, demo text, author links)
#   true model error        the label is right, the net is wrong
SAMPLE_NOTES: dict = {
    ("0011", 372): ("ground-truth omission", "article paragraph (wall-art gallery tip); the whole section is 0, not in GT"),
    ("0076", 470): ("ambiguous boilerplate", "ranking badge on a programme page"),
    ("0232", 278): ("ground-truth omission", "article body sentence, section 276-280 all 0, not in GT"),
    ("0243", 390): ("ambiguous boilerplate", "linked phrase of an in-text promo sentence (insurance / software plug)"),
    ("0520", 15): ("true model error", "forum ad 'Starts at just $1 per CPM'"),
    ("0603", 204): ("ambiguous boilerplate", "FAQ answer on a product page; GT keeps only the description"),
    ("0620", 736): ("true model error", "'Add to Cart' recommendation carousel item"),
    ("2020", 953): ("ground-truth omission", "discussion paragraph with citations of a research article; GT skips it"),
    ("2831", 1460): ("ambiguous boilerplate", "demo changelog text inside a product page (editor screenshot)"),
    ("2866", 1921): ("ground-truth omission", "Kubernetes docs 'Note:' callout; GT drops the callout"),
    ("2879", 888): ("ground-truth omission", "systemd runlevel table cell; GT leaves the table out"),
    ("3029", 1482): ("ambiguous boilerplate", "product tile spec ('Weight: 0.66 lbs') on a collection page"),
    ("4089", 249): ("ground-truth omission", "linked place name in a forum reply; GT keeps only the first post"),
    ("4163", 492): ("true model error", "recipe ingredient quantity, gold content, net says boilerplate"),
    ("4258", 339): ("alignment miss", "comparison-table cell verbatim in GT, labelled 0 (short repeated cells)"),
    ("4287", 125): ("true model error", "resource tile 'Managed Services Quick Reference Card' on a service page"),
    ("4444", 186): ("ambiguous boilerplate", "newsletter's standing author links ('My company, ...')"),
    ("4518", 872): ("true model error", "financing disclaimer on a collection page"),
    ("4677", 219): ("ground-truth omission", "review body paragraph; GT (224 words) has only the intro"),
    ("4694", 429): ("ground-truth omission", "linked phrase of an article intro; GT covers only part of the article"),
}

TEXT_SCRIPT = r"""
import { loadPage } from '%(root)s/dev/corpus.ts';
import { parsePage } from '%(root)s/src/core/blocks/page.ts';
const wanted = JSON.parse(process.argv[2]);
const out = {};
for (const [id, idx] of Object.entries(wanted)) {
  const p = loadPage(id);
  const page = parsePage(p.html, { url: p.url });
  out[id] = { gt: p.groundTruth.mainContent, blocks: Object.fromEntries(idx.map((i) => [i, page.blocks[i]?.text ?? null])) };
}
process.stdout.write(JSON.stringify(out));
"""


def block_texts(wanted: dict) -> dict:
    """{page id: [block indices]} -> {page id: {gt, blocks: {index: text}}} by parsing the pages with src/parse."""
    script = os.path.join("/tmp", f"label-noise-texts-{os.getpid()}.mts")
    with open(script, "w") as f:
        f.write(TEXT_SCRIPT % {"root": ROOT})
    try:
        res = subprocess.run(["npx", "--no-install", "tsx", script, json.dumps(wanted)], cwd=ROOT,
                             capture_output=True, text=True, check=True)
    finally:
        os.remove(script)
    return json.loads(res.stdout)


def norm(s: str) -> str:
    return " ".join(s.lower().split())


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--run", default=os.path.join(ROOT, "training", "runs", "pith-dynamics"))
    ap.add_argument("--max-confidence", type=float, default=0.2)
    ap.add_argument("--max-variability", type=float, default=0.15)
    ap.add_argument("--sample", type=int, default=20)
    ap.add_argument("--min-words", type=int, default=3, help="sampled blocks have at least this many words")
    ap.add_argument("--report", default=os.path.join(ROOT, "training", "reports", "label-noise.md"))
    ap.add_argument("--npz", help="where to write the noisy-block list (default <run>/noisy-blocks.npz)")
    ap.add_argument("--effect", help="JSON file with the measured effect of the cleaning (written into the report)")
    args = ap.parse_args()

    z = np.load(os.path.join(args.run, "dynamics.npz"))
    ckpt = torch.load(os.path.join(args.run, "checkpoint.pt"))
    cfg = ckpt["config"]
    data = Dataset(os.path.join(ROOT, ckpt["dataDir"]))
    if str(z["dataHash"]) != str(data.index.get("dataHash")):
        raise SystemExit("dynamics.npz was recorded on another dump")
    rows, labels, probs, final = z["rows"], z["labels"].astype(np.int64), z["probs"].astype(np.float64), z["final"]
    words = data.require_words("label_noise.py")[rows].astype(np.float64)
    steps = z["steps"]
    conf, var = probs.mean(axis=0), probs.std(axis=0)
    correct = (probs > 0.5).mean(axis=0)

    # null model: the constant predictor that minimises the training loss (class weight x block weight)
    n_classes = 2
    counts = np.bincount(labels, minlength=n_classes).astype(np.float64)
    cw = labels.size / (n_classes * counts) if cfg["unary_class_weight"] == "balanced" else np.ones(n_classes)
    bw = {"none": np.ones_like(words), "log_words": np.log2(2 + words), "sqrt_words": np.sqrt(1 + words),
          "words": words}[cfg.get("block_weight", "none")]
    mass = np.array([(cw[c] * bw[labels == c]).sum() for c in range(n_classes)])
    p_null = mass / mass.sum()
    prior = counts / counts.sum()
    pvi = np.log2(np.maximum(final.astype(np.float64), 1e-12)) - np.log2(p_null[labels])
    pvi_prior = np.log2(np.maximum(final.astype(np.float64), 1e-12)) - np.log2(prior[labels])

    hard = (conf < args.max_confidence) & (var < args.max_variability)
    ambiguous = var >= 0.2
    easy = conf >= 0.8

    # page lookup for every train row
    page_of = np.empty(data.labels.shape[0], dtype=np.int64)
    for k, p in enumerate(data.pages):
        page_of[p.block_offset : p.block_offset + p.n_blocks] = k
    meta = {p["id"]: p for p in data.index["pages"]}
    pg = page_of[rows]

    out_npz = args.npz or os.path.join(args.run, "noisy-blocks.npz")
    np.savez(out_npz, rows=rows[hard], dataHash=str(data.index.get("dataHash")),
             max_confidence=args.max_confidence, max_variability=args.max_variability)

    L = []
    L.append("# Label noise in the aligned block labels (Dataset Cartography, PVI)\n")
    L.append(f"Generated by `training/label_noise.py --run {os.path.relpath(args.run, ROOT)}` from the training "
             f"dynamics of the unary net (`train.py --dynamics`, config {cfg['name']}): p(gold label) of each of the "
             f"{rows.size:,} training blocks ({len(set(pg.tolist()))} pages) at {len(steps)} evaluation points "
             f"(steps {steps[0]}-{steps[-1]}, every {cfg['eval_every']}), whole-page inference. See the top of "
             "training/label_noise.py for the definitions.\n")
    L.append("## Counts\n")
    L.append("| region | blocks | share of blocks | share of words | gold content among them |")
    L.append("| --- | ---: | ---: | ---: | ---: |")
    for name, m in [("hard-to-learn: confidence < %.2f and variability < %.2f" % (args.max_confidence, args.max_variability), hard),
                    ("ambiguous: variability >= 0.2", ambiguous), ("easy-to-learn: confidence >= 0.8", easy),
                    ("all training blocks", np.ones_like(hard))]:
        L.append(f"| {name} | {int(m.sum()):,} | {m.mean():.1%} | {words[m].sum() / max(words.sum(), 1):.1%} | "
                 f"{labels[m].mean() if m.any() else 0:.1%} |")
    L.append("")
    L.append(f"Correctness (share of evaluations right): mean {correct.mean():.3f}; blocks never right: "
             f"{int((correct == 0).sum()):,}; of the hard-to-learn blocks {correct[hard].mean():.3f}.\n")
    L.append(f"PVI against the null model of the same loss (p(y|null) = {p_null[0]:.3f} boilerplate / {p_null[1]:.3f} "
             f"content): mean {pvi.mean():.3f} bits; PVI < 0 for {int((pvi < 0).sum()):,} blocks "
             f"({(pvi < 0).mean():.1%}); hard-to-learn blocks mean {pvi[hard].mean():.2f} bits, "
             f"{(pvi[hard] < 0).mean():.1%} of them < 0. Against the plain label prior ({prior[0]:.3f} / {prior[1]:.3f}): "
             f"mean {pvi_prior.mean():.3f} bits, {(pvi_prior < 0).mean():.1%} < 0. The two views agree: "
             f"{(pvi[hard] < np.percentile(pvi, 10)).mean():.1%} of the hard-to-learn blocks have a PVI below the 10th "
             f"percentile of all blocks ({np.percentile(pvi, 10):.2f} bits); PVI < 0 also flags "
             f"{int(((pvi < 0) & ~hard).sum()):,} blocks outside the hard corner (ambiguous ones on the wrong side at "
             "the kept checkpoint, or confidence between 0.2 and 0.5).\n")
    L.append("Thresholds: the confidence/variability map has its mass at confidence > 0.8; a block whose gold label "
             f"gets p < {args.max_confidence} on average while moving by less than {args.max_variability} (std) across "
             "training is one the net consistently contradicts: the cartography's hard-to-learn corner, where the "
             "paper finds most mislabelled examples.\n")

    # pages
    L.append("## Pages with the largest share of hard-to-learn blocks (train split, pages with >= 10 blocks)\n")
    L.append("| page | type | blocks | hard | share | words in hard blocks | coverage |")
    L.append("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    per_page = []
    for k in sorted(set(pg.tolist())):
        m = pg == k
        if m.sum() >= 10:
            per_page.append((hard[m].mean(), k, int(m.sum()), int(hard[m].sum()), words[m & hard].sum() / max(words[m].sum(), 1)))
    per_page.sort(reverse=True)
    for share, k, n, nh, wshare in per_page[:15]:
        p = data.pages[k]
        L.append(f"| {p.id} | {meta[p.id]['pageType']} | {n} | {nh} | {share:.1%} | {wshare:.1%} | {meta[p.id]['coverage']:.3f} |")
    shares = np.array([s for s, *_ in per_page])
    L.append(f"\n{(shares > 0.2).sum()} of {len(per_page)} pages have more than 20% hard-to-learn blocks, "
             f"{(shares == 0).sum()} have none.\n")
    types = {}
    for k in set(pg.tolist()):
        t = meta[data.pages[k].id]["pageType"]
        m = pg == k
        a = types.setdefault(t, [0, 0])
        a[0] += int(hard[m].sum())
        a[1] += int(m.sum())
    L.append("By page type (hard-to-learn share of blocks): " + ", ".join(
        f"{t} {h / n:.1%}" for t, (h, n) in sorted(types.items(), key=lambda kv: -kv[1][0] / kv[1][1])) + ".\n")

    # sample
    rng = np.random.default_rng(7)
    cand = np.flatnonzero(hard & (words >= args.min_words))
    pick = np.sort(rng.choice(cand, size=min(args.sample, cand.size), replace=False))
    wanted = {}
    for i in pick:
        p = data.pages[pg[i]]
        wanted.setdefault(p.id, []).append(int(rows[i] - p.block_offset))
    texts = block_texts(wanted)
    L.append(f"## A sample of {pick.size} hard-to-learn blocks with >= {args.min_words} words, read and categorised\n")
    L.append("`in GT` = the block's text (whitespace-normalised, lower-cased) occurs verbatim in the ground truth.\n")
    L.append("| page | type | block | gold | conf | var | PVI | words | in GT | text (first 140 chars) | category: note |")
    L.append("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- | --- |")
    cats = {}
    for i in pick:
        p = data.pages[pg[i]]
        b = int(rows[i] - p.block_offset)
        t = texts[p.id]["blocks"][str(b)] or ""
        in_gt = norm(t) in norm(texts[p.id]["gt"]) if t.strip() else False
        cat, note = SAMPLE_NOTES.get((p.id, b), ("not looked at", ""))
        cats[cat] = cats.get(cat, 0) + 1
        short = " ".join(t.split())[:140].replace("|", "\\|")
        L.append(f"| {p.id} | {meta[p.id]['pageType']} | {b} | {labels[i]} | {conf[i]:.2f} | {var[i]:.2f} | "
                 f"{pvi[i]:.1f} | {int(words[i])} | {'yes' if in_gt else 'no'} | {short} | {cat}{': ' + note if note else ''} |")
    L.append("\nCategories in the sample: " + ", ".join(f"{c} {n}" for c, n in sorted(cats.items(), key=lambda kv: -kv[1])) + ".\n")

    if args.effect:
        with open(args.effect) as f:
            L.append(f.read())
    os.makedirs(os.path.dirname(args.report), exist_ok=True)
    with open(args.report, "w") as f:
        f.write("\n".join(L) + "\n")
    print(f"{int(hard.sum())} hard-to-learn blocks ({hard.mean():.1%}); wrote {os.path.relpath(out_npz, ROOT)} and "
          f"{os.path.relpath(args.report, ROOT)}")
    print(f"conf quantiles {np.percentile(conf, [5, 10, 25, 50]).round(3)}, var quantiles "
          f"{np.percentile(var, [50, 75, 90, 99]).round(3)}")


if __name__ == "__main__":
    main()
