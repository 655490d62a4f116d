# Ablation arm (training/reports/news.md, third sweep): p4e with a wider page net: dilations 1, 1, 1, 2, 4 (receptive
# field ±7 blocks instead of ±3), patches seen with 7 blocks of context on each side.
base = 'news/p4e'
unary_dilations = [1, 1, 1, 2, 4]
patch_context = 7
