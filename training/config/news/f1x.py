# First-stage arm (training/reports/news.md): the shipped first-stage config, the Readability.js train part added.
base = 'default'
first_extra_data = ['pith-readability']
