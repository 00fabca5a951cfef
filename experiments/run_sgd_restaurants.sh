#!/usr/bin/env bash
# The paper's relexicalization experiment (Tables 1-5 + plots) on SGD Restaurants_1.
#
#   experiments/run_sgd_restaurants.sh [OUT_DIR] [extra csp-check experiment options]
#
# Data: ../shared/data/sgd/{train,dev} (override with SGD=/path/to/sgd). Add the LLM
# relexicalizer with e.g. `--base-url http://127.0.0.1:8000/v1 --model my-model` (answers are
# cached under ~/.cache/csp-check, so a rerun is free and identical).
# Serial by default: on this 2-core machine --jobs 2 or 4 gained nothing (SGD: 95 s either way, 99 s serial,
# under a load of 6-7); pass --jobs N when N cores are free.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
sgd="${SGD:-$here/../../shared/data/sgd}"
out="${1:-$here/out/sgd_restaurants}"
shift || true
exec csp-check experiment "$sgd/train" "$sgd/dev" --domain Restaurants_1 --seed 0 --out "$out" "$@"
