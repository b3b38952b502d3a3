#!/usr/bin/env bash
# Executes the caplab notebooks against a running caplab (CAPLAB_URL, default http://localhost:8080), papermill's
# way (run_notebook.py), and writes each executed copy, outputs included, to the output directory.
#
#   run-notebooks.sh [--send-example] [--run RUN_ID]... [output-dir]
#
# Every notebook runs once with its own defaults (the demo's runs, or whatever the instance holds most of).
# --run RUN_ID      also runs the one-run notebooks (run_curves, throughput_latency) with RUN_ID = that run,
#                   written as NAME.RUN_ID.ipynb; repeatable.
# --send-example    first sends a fresh history of an example HTTP system through the HTTP API
#                   (send_example_run.py --history: 7 stepped k6-style runs, the 4th a new version that saturates
#                   earlier), waits until caplab concluded them, and adds the newest as a --run.
# Exits non-zero when a cell of any notebook fails; prints `notebooks: N passed, N failed`.
# Uses Debian's Jupyter libraries (/usr/bin/python3), never a pyenv or virtualenv python on PATH.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
python=/usr/bin/python3
export CAPLAB_URL="${CAPLAB_URL:-http://localhost:8080}"
runs=()
send_example=false
out=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --run) runs+=("$2"); shift 2 ;;
    --send-example) send_example=true; shift ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    -*) echo "run-notebooks: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) out="$1"; shift ;;
  esac
done
out="${out:-$(mktemp -d "${TMPDIR:-/tmp}/caplab-notebooks.XXXXXX")}"

if ! "$python" -c 'import nbclient, nbformat, ipykernel, pandas, matplotlib' 2>/dev/null; then
  echo "run-notebooks: Debian's python3 lacks the notebook libraries; install jupyter-nbconvert jupyter-client" \
       "python3-ipykernel python3-pandas python3-matplotlib" >&2
  exit 2
fi
# The kernel must be Debian's python3 too, whatever python is first on PATH.
export PATH="/usr/bin:$PATH"
# caplab_client.py sits beside the notebooks; each one runs with its own folder as working directory.
export PYTHONPATH="$here${PYTHONPATH:+:$PYTHONPATH}"
export PYDEVD_DISABLE_FILE_VALIDATION=1
mkdir -p "$out"

# The example history is sent and concluded while the notebooks that do not read it (the demo's runs) execute.
sender=""
if $send_example; then
  prefix="example-shop-$(date -u +%Y%m%dT%H%M%S)"
  echo "run-notebooks: sending the example history $prefix-1..7 to $CAPLAB_URL"
  sent_file="$out/.example-runs"
  ( "$python" "$here/send_example_run.py" --history --run-id "$prefix" > "$sent_file"
    mapfile -t sent < "$sent_file"
    "$python" -c 'import sys; from caplab_client import CaplabClient; CaplabClient().wait_for_runs(sys.argv[1:])' \
      "${sent[@]}"
    echo "run-notebooks: the example history was sent and concluded in $SECONDS s" ) &
  sender=$!
fi

passed=0
failed=0
execute() {  # notebook output [parameters...]
  local notebook="$1" target="$2"
  shift 2
  local started=$SECONDS
  echo "run-notebooks: $notebook $* against $CAPLAB_URL"
  if "$python" "$here/run_notebook.py" "$here/$notebook.ipynb" "$target" "$@"; then
    passed=$((passed + 1))
    echo "run-notebooks: $notebook took $((SECONDS - started)) s"
  else
    failed=$((failed + 1))
    echo "run-notebooks: $notebook FAILED (executed copy, with the failing cell, in $target)" >&2
  fi
}
for notebook in run_curves compare_tiers; do
  execute "$notebook" "$out/$notebook.ipynb"
done
if [[ -n "$sender" ]]; then
  if ! wait "$sender"; then
    echo "run-notebooks: sending the example history to $CAPLAB_URL failed" >&2
    exit 1
  fi
  mapfile -t sent < "$sent_file"
  rm -f "$sent_file"
  runs+=("${sent[-1]}")
fi
for notebook in throughput_latency history; do
  execute "$notebook" "$out/$notebook.ipynb"
done
for run in "${runs[@]}"; do
  for notebook in run_curves throughput_latency; do
    execute "$notebook" "$out/$notebook.$run.ipynb" -r RUN_ID "$run"
  done
done
echo "run-notebooks: $SECONDS s in all"
echo "notebooks: $passed passed, $failed failed"
echo "run-notebooks: executed notebooks in $out"
[[ $failed -eq 0 ]]
