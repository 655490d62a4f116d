# Tiny CI run (training/smoke.sh): a handful of pages, a few steps. Never ship a model made with this config
# except as the first integration model.
seed = 1337
threads = 1
batch_size = 32
patch_size = 9
patch_context = 0
lr = 1e-3
max_steps = 60
eval_every = 20
patience = 0
dropout = 0.2
l2 = 0.0
unary_class_weight = 'balanced'
pairwise_class_weight = 'none'
feature_clip = 10.0
lambdas = [0.0, 0.5, 1.0]
golden_pages = 2
