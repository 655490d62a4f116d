#!/usr/bin/env bash
# CI smoke test of the training code (issue 3 item 8): dump a handful of pages, train the smoke config for a few
# steps, export to a temp dir and check PyTorch vs onnxruntime-web parity; then the page stage the same way (two
# fold nets, the out-of-fold page dump, the page net, its export and parity). Non-zero on any failure.
#
#   training/smoke.sh            (from anywhere; needs /usr/bin/python3, or $PITH_PYTHON, with torch, numpy, onnx)
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PITH_PYTHON:-/usr/bin/python3}   # Debian's Python with PyTorch 1.13, ONNX and NumPy
SET=${SMOKE_SET:-pith}
DATA=training/data/smoke
RUN=$(mktemp -d)
OUT=$(mktemp -d)
trap 'rm -rf "$RUN" "$OUT"' EXIT

start=$(date +%s)
step() { echo "smoke: $* (at $(( $(date +%s) - start ))s)" >&2; }   # where a slow or stuck run is, in the log
step dump
npm run --silent dump -- --set "$SET" --limit 30 --out "$DATA"
step train
"$PY" training/train.py --set "$SET" --config smoke --data "$DATA" --out "$RUN"
step train with extra data
"$PY" training/train.py --set "$SET" --config smoke --data "$DATA" --out "$RUN/extra" \
  --override "first_extra_data=['smoke']" --override "first_type_weight={'article': 2.0}"
step export
"$PY" training/export.py --set "$SET" --run "$RUN" --out "$OUT"   # fails unless parity holds
if [ "$SET" = pith ]; then
  step page folds
  "$PY" training/page.py folds --run "$RUN" --data "$DATA" --models "$OUT" --k 2
  step page dump
  npm run --silent dump:page -- --data "$DATA" --run "$RUN" --models "$OUT"
  step page train
  "$PY" training/page.py train --config smoke --run "$RUN" --data "$DATA"
  step page export
  "$PY" training/page.py export --run "$RUN" --data "$DATA" --out "$OUT"   # fails unless parity holds
  test -s "$OUT/$SET-page.onnx" || { echo "smoke: $SET-page.onnx was not written" >&2; exit 1; }
fi
for f in "$SET-unary.onnx" "$SET-pairwise.onnx" "$SET.json" "$SET.golden.json"; do
  test -s "$OUT/$f" || { echo "smoke: $f was not written" >&2; exit 1; }
done
echo "training smoke test ok in $(( $(date +%s) - start ))s"
