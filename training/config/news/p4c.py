# Ablation arm (training/reports/news.md): page-4 and the main-content container's columns (inside_container,
# container_score from training/container-dataset.ts --block-columns): the container model as a page feature.
base = 'page'
page_schema = 'page-4'
page_columns = ['container']
