# First-stage arm (training/reports/news.md): f1x, article pages weighed 2.
base = 'default'
first_extra_data = ['pith-readability']
first_type_weight = {'article': 2.0}
