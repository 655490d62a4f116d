# Ablation arm (training/reports/news.md, second sweep): page-4, Readability.js train part, article weight 1.0.
base = 'page'
page_schema = 'page-4'
extra_data = ['pith-readability']
page_type_weight = {'article': 1.0}
