# Ablation arm (training/reports/news.md): the shipped page config on the page-3 features of a page-4 dump.
base = 'page'
page_schema = 'page-3'
