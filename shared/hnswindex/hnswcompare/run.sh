#!/usr/bin/env bash
# Firmo's HNSW index and hnswlib side by side (see main.go). hnswlib's C++ comes from npm's
# hnswlib-node package, which ships its headers; it is unpacked into a temporary directory
# and built with -O3 -march=native, and nothing of it is kept.
#
#   shared/hnswindex/hnswcompare/run.sh [WORKDIR]        (defaults: 200,000 vectors, 1,000 queries)
#   N=20000 QUERIES=200 PASSES=3 shared/hnswindex/hnswcompare/run.sh
#   FLAGS=-compact=false shared/hnswindex/hnswcompare/run.sh   (Firmo on half-precision rows)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
work=${1:-${TMPDIR:-/tmp}/firmo-hnswcompare}
N=${N:-200000}
QUERIES=${QUERIES:-1000}
PASSES=${PASSES:-5}
EFS=${EFS:-10,20,40,80,320}
FLAGS=${FLAGS:-}
HNSWLIB_NODE=${HNSWLIB_NODE:-hnswlib-node@3.0.0}
mkdir -p "$work"
command -v g++ >/dev/null || { echo "g++ is needed (apt-get install -y g++)"; exit 1; }
command -v npm >/dev/null || { echo "npm is needed (apt-get install -y npm)"; exit 1; }
if [ ! -d "$work/package/src/hnswlib" ]; then
  echo "fetching $HNSWLIB_NODE from npm for hnswlib's headers"
  (cd "$work" && npm pack --silent "$HNSWLIB_NODE" >/dev/null && tar xzf hnswlib-node-*.tgz)
fi
g++ -O3 -march=native -DNDEBUG -std=c++17 -I "$work/package/src" \
  -o "$work/hnswlib_engine" "$here/testdata/hnswlib_engine.cc" -lpthread
(cd "$root" && go build -o "$work/hnswcompare" ./shared/hnswindex/hnswcompare)
if [ ! -f "$work/data-$N-$QUERIES/truth.bin" ]; then
  "$work/hnswcompare" gen -out "$work/data-$N-$QUERIES" -n "$N" -queries "$QUERIES"
fi
echo "load before the run: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
"$work/hnswcompare" compare -dir "$work/data-$N-$QUERIES" -hnswlib "$work/hnswlib_engine" -efs "$EFS" -passes "$PASSES" $FLAGS
echo "load after the run: $(cut -d' ' -f1-3 /proc/loadavg)"
