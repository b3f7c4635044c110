#!/usr/bin/env bash
# Zips every Lambda bootstrap under bin/lambda the way a deployment package is made
# (zip -9) and prints a table of unzipped and zipped sizes; exits 1 when a zip is over
# the budget (DESIGN.md section 1: 25 MB; Lambda's own limit is 250 MB unzipped).
# Run `make build` first; `make lambda-sizes` does both.
set -euo pipefail
cd "$(dirname "$0")/.."
budget=${LAMBDA_ZIP_BUDGET:-$((25 * 1024 * 1024))}
command -v zip >/dev/null || { echo "zip is needed: apt-get install -y zip"; exit 1; }
shopt -s nullglob
bootstraps=(bin/lambda/*/bootstrap)
[ ${#bootstraps[@]} -gt 0 ] || { echo "no bin/lambda/*/bootstrap: run make build first"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
over=0
printf '%-14s %14s %14s\n' function unzipped_bytes zipped_bytes
for b in "${bootstraps[@]}"; do
  fn=$(basename "$(dirname "$b")")
  (cd "$(dirname "$b")" && zip -q -9 -X "$tmp/$fn.zip" bootstrap)
  raw=$(stat -c %s "$b")
  zipped=$(stat -c %s "$tmp/$fn.zip")
  flag=""
  if [ "$zipped" -gt "$budget" ]; then flag="  OVER the $budget-byte budget"; over=1; fi
  printf '%-14s %14d %14d%s\n' "$fn" "$raw" "$zipped" "$flag"
done
exit $over
