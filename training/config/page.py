# Config of the page-level second stage (training/page.py train): the unary training of default.py over the page
# features (src/parse/page-context.ts) of out-of-fold first passes; only the Viterbi lambda grid differs.
base = 'default'

lambdas = [0.0, 0.05, 0.1, 0.25, 0.5, 1.0]

# Nets trained from seeds seed, seed + 1, ...; with more than one, the exported page net is the mean of their
# probabilities (one ONNX graph of grouped convolutions). Three (seeds 1337-1339) scored 0.8774 on the val proxy
# against 0.8786 for seed 1337 alone, and cost about 0.5 ms a page more (README, News pages, Ablations): one ships.
ensemble = 1
