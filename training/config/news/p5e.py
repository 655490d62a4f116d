# Ablation arm (training/reports/news.md, fourth sweep): p4e on the page-5 features (page-4 and topical coherence:
# the sections' cosine with the page's expected content, leave-one-out, and with the title).
base = 'news/p4e'
page_schema = 'page-5'
