# Ablation arm (training/reports/news.md): the shipped page config on the page-4 features (links, the anchor).
base = 'page'
page_schema = 'page-4'
