#!/usr/bin/env bash
# Behaviour snapshot: the reports and benchmark outputs that a refactor must leave byte-identical.
#
#   bash benchmarks/snapshot.sh OUT_DIR [TREE]     # TREE: a checkout to run (default: this one)
#   ONLY="sgd multiwoz" bash benchmarks/snapshot.sh OUT_DIR   # only the named entries
#   diff -r BEFORE_DIR AFTER_DIR                   # timing lines are dropped from the outputs
#
# Reads ../shared/data (SGD dev + train, MultiWOZ 2.1 val + DB, ConvLab-3 samples, NLSI release
# files) and the bundled examples; writes one file per command into OUT_DIR.
set -uo pipefail
out=$(realpath -m "$1"); tree=$(realpath "${2:-$(dirname "$0")/..}")
shared=$(realpath "$tree/../shared/data" 2>/dev/null || realpath "$(dirname "$0")/../../shared/data")
mkdir -p "$out"; cd "$tree"
export PYTHONPATH="$tree" PYTHONHASHSEED=0
cli() { python3 -c 'import sys
try: from csp_check.cli.main import main
except ImportError: from csp_check.cli import main
main()' "$@"; }
untimed() { sed -E 's/[0-9]+(\.[0-9]+)? ?(s|ms|dialogues\/s|MB|MiB)\b/<t>/g'; }
run() { local name=$1; shift; [[ -n "${ONLY:-}" && " $ONLY " != *" $name "* ]] && return; "$@" >"$out/$name.out" 2>"$out/$name.err"; echo "rc=$?" >>"$out/$name.out"
        untimed <"$out/$name.out" >"$out/$name.tmp" && mv "$out/$name.tmp" "$out/$name.out"; }
run example cli validate examples/dialogues.jsonl --kb kb/restaurants.json --report "$out/example.jsonl"
run raw_example cli validate examples/raw_dialogues.txt --kb kb/restaurants.json --report "$out/raw_example.jsonl"
run sgd cli validate "$shared/sgd/dev" "$shared/sgd/train" --report "$out/sgd.jsonl" --quiet
run sgd_vca cli validate "$shared/sgd/dev" --vca --count-solutions --repair --report "$out/sgd_vca.jsonl" --quiet
run multiwoz cli validate "$shared/multiwoz/val.json.zip" --kb "$shared/multiwoz/db" --report "$out/multiwoz.jsonl" --quiet
run multiwoz_c16 cli validate "$shared/multiwoz/val.json.zip" --kb "$shared/multiwoz/db" --constraints C1,C2,C3,C4,C5,C6 --report "$out/multiwoz_c16.jsonl" --quiet
run convlab cli validate "$shared/convlab_unified" --kb "$shared/multiwoz/db" --report "$out/convlab.jsonl" --quiet
run delex cli delexicalize "$shared/sgd/dev" --out "$out/delex.jsonl" --quiet
run constraints cli constraints --json
run nlsi_build cli nlsi build "$shared/sgd/dev" --out "$out/nlsi.jsonl" --seed 0 --limit 200
run nlsi_calls cli calls "$out/nlsi.jsonl" --report "$out/nlsi_calls.jsonl" --quiet
run nlsi_derive cli calls "$out/nlsi.jsonl" --derive --report "$out/nlsi_derive.jsonl" --quiet
run bench_multiwoz python3 benchmarks/multiwoz.py
run bench_rawtext python3 benchmarks/rawtext.py
run bench_gold python3 benchmarks/gold.py
run bench_nlsi python3 benchmarks/nlsi.py
run bench_faults python3 benchmarks/faults.py "$shared/sgd/dev"
run bench_annotation python3 benchmarks/annotation.py
run bench_annotation_mwoz python3 benchmarks/annotation.py --multiwoz
# reports name their inputs by path: make them relative to the tree
sed -i "s#$tree#TREE#g; s#$shared#SHARED#g; s#$out#OUT#g" "$out"/*.out "$out"/*.err "$out"/*.jsonl 2>/dev/null
echo "snapshot written to $out"
