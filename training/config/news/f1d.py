# First-stage arm (training/reports/news.md, third sweep): the shipped first-stage config with a wider unary net,
# dilations 1, 1, 1, 2, 4 (receptive field ±7 blocks instead of ±3), training patches seen with 7 blocks of context.
base = 'default'
unary_dilations = [1, 1, 1, 2, 4]
patch_context = 7
