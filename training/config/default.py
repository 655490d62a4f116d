# Config for the real training run (one per feature set): `python3 training/train.py --set pith --config default`.
# Flat names, read by training/train.py and training/export.py. docs/design.md (The nets) describes the method.

seed = 1337              # torch, numpy and random
threads = 1              # torch intra-op threads: 1, since the 2 cores are shared (2 threads thrash under load)

# batches: 128 patches of 9 consecutive blocks (the pairwise net sees the 8 edges between them)
batch_size = 128
patch_size = 9
patch_context = 0        # extra blocks seen (not scored) on each side of a patch; 0 = the reference. 3 gave val F1
                         # 0.829 unary / 0.831 Viterbi vs 0.828 / 0.829 (pith, one seed): too small to adopt

# optimisation (Adam), trained separately for the unary and the pairwise net
lr = 1e-3
max_steps = 5000         # the reference's number of updates
eval_every = 250         # steps between validation passes; the best checkpoint is kept
patience = 6             # stop after this many evaluations (1500 steps) without improvement (0 = never)

# regularisation (training/model.py)
dropout = 0.2            # DropConnect on weights; the reference's keep probability 0.8
l2 = 0.0                 # the newest reference code uses no L2

# class imbalance: 'none' or 'balanced' (cross-entropy weights n / (nClasses * n_class) from the train split).
# Balanced unary weights raised val block F1 (pith, first dump: 0.819 -> 0.828, content is 37% of the blocks);
# balanced pairwise weights lowered edge accuracy (0.81 -> 0.68) and made every lambda > 0 worse, so not there.
unary_class_weight = 'balanced'
pairwise_class_weight = 'none'

# aligning the loss and the model choice with the benchmark's word-F1 (macro over pages, counts words):
# block_weight: unary loss weight per block from its word count (words.u32): 'none' (the reference) | 'log_words'
# log2(2 + w) | 'sqrt_words' sqrt(1 + w) | 'words' w. select_metric: unary checkpoint and lambda on val 'block_f1'
# (pooled) | 'word_f1' (macro word-F1 proxy from block labels, common.word_f1_proxy; tracks `npm run eval` within
# 0.001). Val word-F1 proxy, seeds 1337 / 1 / 2 (2026-11-30):
#   none + block_f1 + patience 6 (before)   0.8613 / 0.8612 / 0.8529   mean 0.8585
#   log_words + word_f1 + patience 0         0.8625 / 0.8618 / 0.8591   mean 0.8611
#   (seed 1337 only: sqrt_words 0.8606, none + word_f1 0.8613, words 0.8550 with patience 6)
# log_words (seed 1337) measured by `npm run eval`: word-F1 0.864 vs 0.862, but documentation stays behind
# Readability (0.891 vs 0.895), forum drops 0.719 -> 0.696 (page 0517 collapses 0.83 -> 0.24, an e2e fixture fails)
# and listing 0.762 -> 0.752; per-page decisions flip between seeds either way. Within noise and not better on
# every page type, so not adopted: the reference's unweighted loss stays.
block_weight = 'none'
select_metric = 'block_f1'

# standardised features are clipped to [-clip, clip] (0 = no clip); stored in the sidecar, applied by the TS runtime
feature_clip = 10.0

# decoding (training/export.py): lambda sweep on validation, the best by select_metric goes into the sidecar, unless
# `export.py --lambda L`. The shipped pith model: `export.py --set pith --lambda 0.05`, chosen on the benchmark's
# word-F1 (eval/sweep-lambda.ts, val: 0.8622 / 0.8629 / 0.8617 at lambda 0 / 0.05 / 0.1; block F1 picks 0.1)
lambdas = [0.0, 0.1, 0.25, 0.5, 1.0, 2.0]
golden_pages = 3         # validation pages written to models/<set>.golden.json for the parity tests

# label noise (training/reports/label-noise.md): `noisy_blocks` = the .npz of training/label_noise.py,
# `noisy_action` 'drop' | 'relabel'. Dropping the 2.3% hard-to-learn training blocks lowered val word-F1 0.862 ->
# 0.844 (relabelling, a stricter list and gold-content-only did not help either): no cleaning.
noisy_blocks = None
noisy_action = 'drop'
