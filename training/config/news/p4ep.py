# Ablation arm (training/reports/news.md, third sweep): p4e with product pages weighed 2 (p4e lost product pages).
base = 'news/p4e'
page_type_weight = {'product': 2.0}
