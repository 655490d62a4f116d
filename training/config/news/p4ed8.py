# Ablation arm (training/reports/news.md, third sweep): p4e with dilations 1, 1, 2, 4, 8 (receptive field ±14 blocks),
# patches seen with 14 blocks of context on each side.
base = 'news/p4e'
unary_dilations = [1, 1, 2, 4, 8]
patch_context = 14
