# Config of the page-level second stage (training/page.py train): the unary training of default.py over the page
# features (src/parse/page-context.ts) of out-of-fold first passes; only the Viterbi lambda grid differs.
base = 'default'

lambdas = [0.0, 0.05, 0.1, 0.25, 0.5, 1.0]

# Nets trained from seeds seed, seed + 1, ...; the exported page net is the mean of their probabilities (one ONNX
# graph). Seeds of the same config spread by about 0.008 on the val proxy (default.py); the mean of three removes most
# of that spread (README, News pages, Ablations).
ensemble = 1
