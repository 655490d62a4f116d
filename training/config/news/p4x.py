# Ablation arm (training/reports/news.md): page-4, the Readability.js train part added, article pages weighed 2.
base = 'page'
page_schema = 'page-4'
extra_data = ['pith-readability']
page_type_weight = {'article': 2.0}
