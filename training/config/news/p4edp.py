# Ablation arm (training/reports/news.md, third sweep): p4ed with product pages weighed 2.
base = 'news/p4ed'
page_type_weight = {'product': 2.0}
