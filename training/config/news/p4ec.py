# Ablation arm (training/reports/news.md, third sweep): p4e (page-4, the Readability.js train part, no article
# weight) with the main-content container's two columns (p4c): the container as a page feature over more pages.
base = 'page'
page_schema = 'page-4'
page_columns = ['container']
extra_data = ['pith-readability']
page_type_weight = {'article': 1.0}
