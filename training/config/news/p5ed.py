# Ablation arm (training/reports/news.md, fourth sweep): p4ed (p4e with dilations 1, 1, 1, 2, 4) on the page-5
# features.
base = 'news/p4ed'
page_schema = 'page-5'
