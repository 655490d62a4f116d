# Tiny CI run (training/smoke.sh): default.py with a handful of pages' worth of steps. Never ship a model made with
# this config except as the first integration model.
base = 'default'

batch_size = 32
max_steps = 60
eval_every = 20
patience = 0
lambdas = [0.0, 0.5, 1.0]
golden_pages = 2
ensemble = 2  # page stage: two nets, so that the smoke run exports and parity-checks the grouped mean too
unary_dilations = [1, 1, 1, 2, 2]  # unary, fold and page nets dilated, so that export and parity cover dilation too
