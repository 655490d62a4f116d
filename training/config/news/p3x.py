# Ablation arm (training/reports/news.md): the shipped page-3 features, the Readability.js train part added to the
# page net's data, article pages weighed 2 (p4x without the page-4 features: no new runtime work).
base = 'page'
page_schema = 'page-3'
extra_data = ['pith-readability']
page_type_weight = {'article': 2.0}
