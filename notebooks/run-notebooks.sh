#!/usr/bin/env bash
# Executes every caplab notebook against a running caplab (CAPLAB_URL, default http://localhost:8080) with the
# demo data loaded; exits non-zero when any cell of any notebook fails, an assertion included.
# Uses Debian's Jupyter (/usr/bin/jupyter, /usr/bin/python3), never a pyenv or virtualenv python on PATH.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
jupyter=/usr/bin/jupyter
out="${1:-$(mktemp -d "${TMPDIR:-/tmp}/caplab-notebooks.XXXXXX")}"
export CAPLAB_URL="${CAPLAB_URL:-http://localhost:8080}"
timeout_s="${CAPLAB_NOTEBOOK_TIMEOUT_SECONDS:-900}"

if [[ ! -x "$jupyter" ]]; then
  echo "run-notebooks: $jupyter missing; install Debian's jupyter-nbconvert jupyter-client python3-ipykernel" \
       "python3-pandas python3-matplotlib" >&2
  exit 2
fi
# The kernel must be Debian's python3 too, whatever python is first on PATH.
export PATH="/usr/bin:$PATH"
# caplab_client.py sits beside the notebooks; nbconvert runs each one with its own folder as working directory.
export PYTHONPATH="$here${PYTHONPATH:+:$PYTHONPATH}"
mkdir -p "$out"

passed=0
failed=0
for notebook in provider_comparison cliff_detection capacity_planning; do
  echo "run-notebooks: $notebook against $CAPLAB_URL"
  if "$jupyter" nbconvert --to notebook --execute --ExecutePreprocessor.timeout="$timeout_s" \
       --ExecutePreprocessor.kernel_name=python3 --output-dir "$out" "$here/$notebook.ipynb"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "run-notebooks: $notebook FAILED (executed copy, with the failing cell, in $out)" >&2
  fi
done
echo "notebooks: $passed passed, $failed failed"
echo "run-notebooks: executed notebooks in $out"
[[ $failed -eq 0 ]]
