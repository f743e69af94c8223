#!/usr/bin/env bash
# Where the e2e CPU goes (decision 903): each spec file (and the Firefox/WebKit config) run alone
# through scripts/e2e.mjs in one job, with its wall time and the machine's busy CPU seconds from
# /proc/stat (browsers and servers included). Run on a quiet machine after `npm run build`.
#   scripts/e2e-cpu.sh [words...]   (only spec files whose names contain one of the words)
set -uo pipefail
cd "$(dirname "$0")/.."
busy() { awk '/^cpu /{print ($2+$3+$4+$7+$8)/100}' /proc/stat; }
logs=$(mktemp -d)
for f in $(ls e2e/*.spec.ts | xargs -n1 basename) engines/; do
  if [ $# -gt 0 ]; then
    keep=0
    for w in "$@"; do [[ $f == *"$w"* ]] && keep=1; done
    [ $keep -eq 1 ] || continue
  fi
  b0=$(busy); t0=$(date +%s.%N)
  E2E_JOBS=1 node scripts/e2e.mjs "$f" >"$logs/${f%/}.log" 2>&1; rc=$?
  b1=$(busy); t1=$(date +%s.%N)
  printf '%-34s wall %6.1f s  CPU %6.1f s  exit %s\n' "$f" "$(echo "$t1 - $t0" | bc)" "$(echo "$b1 - $b0" | bc)" "$rc"
done
echo "logs: $logs"
