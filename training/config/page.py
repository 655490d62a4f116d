# Config of the page-level second stage (training/page.py train): the unary training of default.py over the page
# features (src/core/features/page-context.ts) of out-of-fold first passes; only the Viterbi lambda grid differs.
base = 'default'

lambdas = [0.0, 0.05, 0.1, 0.25, 0.5, 1.0]

# Nets trained from seeds seed, seed + 1, ...; with more than one, the exported page net is the mean of their
# probabilities (one ONNX graph of grouped convolutions). Three (seeds 1337-1339) scored 0.8774 on the val proxy
# against 0.8786 for seed 1337 alone, and cost about 0.5 ms a page more (CHANGELOG.md): one ships.
ensemble = 1

# Class weights: 'none' (the plain cross-entropy), where the first stage uses 'balanced'. Balanced weights count a
# content block 1.7 times as much as a boilerplate one (content is 37% of the blocks), which buys recall; the page
# stage's mistakes are the other way (kept teasers, comments, widgets: precision). Val word-F1 proxy / article
# precision proxy over seeds 1337 / 1338 / 1339 (tmp runs, 2026-11-30, CHANGELOG.md):
#   balanced        0.8786 / 0.8764 / 0.8727 (mean 0.8759)   article P 0.9280 / 0.9295 / 0.9285 (mean 0.9287)
#   sqrt_balanced   0.8793 / 0.8791 / 0.8726 (mean 0.8770)   article P 0.9331 / 0.9336 / 0.9261 (mean 0.9309)
#   none            0.8768 / 0.8762 / 0.8747 (mean 0.8759)   article P 0.9388 / 0.9352 / 0.9316 (mean 0.9352)
# 'none' raises article precision with every seed at the same overall word-F1: it ships (seed 1337, the default).
unary_class_weight = 'none'
