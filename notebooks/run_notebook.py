"""Executes notebooks with parameters, papermill's way, using only Debian's nbformat and nbclient.

    python3 run_notebook.py NOTEBOOK.ipynb OUTPUT.ipynb [-p NAME VALUE]... [-r NAME VALUE]...

As papermill does: the parameters go into a new cell tagged `injected-parameters` placed right after the cell
tagged `parameters` (whose defaults stay visible above it), replacing an injected cell of an earlier execution; the
notebook runs with its own folder as working directory and is written with every output, also when a cell fails.
`-p` values are read as JSON when they parse (numbers, true/false/null, lists, quoted strings), else as text;
`-r` values are always text. Exit code 1 when a cell failed, naming the notebook and the cell.
"""

import argparse
import json
import os
import sys

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

PARAMETERS_TAG = "parameters"
INJECTED_TAG = "injected-parameters"


def parse_value(text):
    """A -p value: JSON when it parses (42, 1.5, true, null, ["a", "b"]), else the text itself."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def python_literal(value):
    """Python source for a JSON-shaped value (true/false/null become True/False/None)."""
    return repr(value)


def inject(notebook, parameters):
    """Adds the injected-parameters cell after the parameters cell (or first, when none is tagged)."""
    cells = [c for c in notebook.cells if INJECTED_TAG not in c.get("metadata", {}).get("tags", [])]
    if not parameters:
        notebook.cells = cells
        return
    lines = ["# Parameters given to this execution"]
    lines += [f"{name} = {python_literal(value)}" for name, value in parameters.items()]
    cell = nbformat.v4.new_code_cell("\n".join(lines), metadata={"tags": [INJECTED_TAG]})
    position = next((i + 1 for i, c in enumerate(cells)
                     if PARAMETERS_TAG in c.get("metadata", {}).get("tags", [])), 0)
    cells.insert(position, cell)
    notebook.cells = cells


def strip_ids(notebook):
    """Cell ids are random per execution; dropping them keeps committed notebooks' diffs to what changed."""
    if notebook.nbformat == 4 and notebook.nbformat_minor >= 5:
        notebook.nbformat_minor = 4
    for cell in notebook.cells:
        cell.pop("id", None)


def execute(source, target, parameters, timeout_seconds):
    notebook = nbformat.read(source, as_version=4)
    inject(notebook, parameters)
    client = NotebookClient(notebook, timeout=timeout_seconds, kernel_name="python3",
                            resources={"metadata": {"path": os.path.dirname(os.path.abspath(source))}})
    failure = None
    try:
        client.execute()
    except CellExecutionError as e:
        failure = e
    finally:
        notebook.metadata.pop("widgets", None)
        strip_ids(notebook)
        nbformat.write(notebook, target)
    return failure


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebook")
    parser.add_argument("output")
    parser.add_argument("-p", "--parameter", nargs=2, action="append", default=[], metavar=("NAME", "VALUE"))
    parser.add_argument("-r", "--raw", nargs=2, action="append", default=[], metavar=("NAME", "VALUE"))
    parser.add_argument("--timeout", type=int, default=int(os.environ.get("CAPLAB_NOTEBOOK_TIMEOUT_SECONDS", "900")),
                        help="seconds one cell may take")
    args = parser.parse_args(argv)
    parameters = {name: parse_value(value) for name, value in args.parameter}
    parameters.update({name: value for name, value in args.raw})
    failure = execute(args.notebook, args.output, parameters, args.timeout)
    if failure is not None:
        print(f"run_notebook: {args.notebook} failed; executed copy with the failing cell in {args.output}\n"
              f"{str(failure)[-3000:]}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
