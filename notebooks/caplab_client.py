"""Tiny client of caplab's query API for notebooks: JSON in, pandas DataFrames out.

Base URL from CAPLAB_URL (default http://localhost:8080), optional bearer token from CAPLAB_TOKEN.
Standard library plus pandas only, so Debian's python3-pandas is enough.
"""

import json
import os
import time
import urllib.error
import urllib.parse
import urllib.request

import pandas as pd

MBIT_BYTES = 1_000_000 / 8

# ClickHouse types whose JSON values need converting (64-bit integers come quoted).
_INT_TYPES = ("Int64", "UInt64", "Int128", "UInt128")


class CaplabError(Exception):
    """The API answered with an error; carries the status and the RFC 9457 problem details when present."""

    def __init__(self, method, url, status, body):
        self.status = status
        self.problem = None
        try:
            self.problem = json.loads(body)
        except ValueError:
            pass
        detail = self.problem.get("detail") if isinstance(self.problem, dict) else body[:500]
        super().__init__(f"{method} {url} -> HTTP {status}: {detail}")


def _secret(token):
    """The secret of CAPLAB_TOKEN, which may be given as the server takes it: SECRET=SCOPES, first entry first."""
    if not token or not token.split():
        return None
    first = token.split()[0]
    secret, _, scopes = first.rpartition("=")
    if secret and scopes and all(s in ("read", "write") for s in scopes.split(",")):
        return secret
    return first


class CaplabClient:
    """GET/POST JSON against /api/v1, with DataFrame helpers for the endpoints notebooks use."""

    def __init__(self, base_url=None, token=None, timeout_seconds=60):
        self.base_url = (base_url or os.environ.get("CAPLAB_URL") or "http://localhost:8080").rstrip("/")
        self.token = token if token is not None else _secret(os.environ.get("CAPLAB_TOKEN"))
        self.timeout_seconds = timeout_seconds

    # -- transport -------------------------------------------------------------------------------------------

    def _request(self, method, path, params=None, body=None):
        url = self.base_url + path
        if params:
            query = {k: v for k, v in params.items() if v is not None}
            url += "?" + urllib.parse.urlencode(query, doseq=True)
        headers = {"Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            headers["Content-Type"] = "application/json"
        if self.token:
            headers["Authorization"] = "Bearer " + self.token
        request = urllib.request.Request(url, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout_seconds) as response:
                raw = response.read().decode("utf-8")
        except urllib.error.HTTPError as e:
            raise CaplabError(method, url, e.code, e.read().decode("utf-8", "replace")) from e
        return json.loads(raw) if raw else None

    def get(self, path, **params):
        """GET a JSON document."""
        return self._request("GET", path, params=params)

    def post(self, path, body):
        """POST a JSON body, return the JSON answer."""
        return self._request("POST", path, body=body)

    @staticmethod
    def frame(document):
        """A DataFrame of a JSON list, or of the `rows` of a table-shaped document."""
        if isinstance(document, dict) and "rows" in document:
            document = document["rows"]
        return pd.DataFrame(document)

    def get_df(self, path, **params):
        return self.frame(self.get(path, **params))

    def post_df(self, path, body):
        return self.frame(self.post(path, body))

    # -- endpoints -------------------------------------------------------------------------------------------

    def runs(self, **filters):
        """GET /api/v1/runs; filters: sut, version, provider, region, tier, tool, label (key=value list), from, to."""
        document = self.get("/api/v1/runs", **filters)
        if isinstance(document, dict):
            document = document.get("runs") or document.get("items") or []
        return self.frame(document)

    def run(self, run_id):
        """GET /api/v1/runs/{id}: run, conclusion (bottleneck, capacity estimates), steps, fits, maxStableX, failedX (a dict)."""
        return self.get("/api/v1/runs/" + urllib.parse.quote(run_id, safe=""))

    def steps(self, run_id):
        return self.get_df("/api/v1/runs/" + urllib.parse.quote(run_id, safe="") + "/steps")

    def aggregates(self, run_id, metric=None, source=None):
        return self.get_df("/api/v1/runs/" + urllib.parse.quote(run_id, safe="") + "/aggregates",
                           metric=metric, source=source)

    def fits(self, run_id, metric=None):
        return self.get("/api/v1/runs/" + urllib.parse.quote(run_id, safe="") + "/fits", metric=metric)

    def throughput(self, run_id):
        """GET /api/v1/runs/{id}/throughput: per-step requests/s, error ratio, p50/p95/p99 (ms), throughput limit."""
        document = self.get("/api/v1/runs/" + urllib.parse.quote(run_id, safe="") + "/throughput")
        document["frame"] = pd.DataFrame(document.get("steps", []))
        return document

    def history(self, sut=None, tier=None, tool=None, load_expression=None, metric=None):
        """GET /api/v1/history: one cohort's slope, knee, max stable load and throughput limit across runs, with
        change points; parameters left out must have one value across the matching runs (else HTTP 400 naming it)."""
        return self.get("/api/v1/history", sut=sut, tier=tier, tool=tool, loadExpression=load_expression,
                        metric=metric)

    def compare(self, run_ids=None, sut=None, group_by="provider", metric=None):
        """GET /api/v1/compare: a dict with rows (as a DataFrame under 'frame') and warnings."""
        document = self.get("/api/v1/compare", runId=run_ids, sut=sut, groupBy=group_by, metric=metric)
        document["frame"] = self.frame(document)
        return document

    def plan(self, profile, run_ids=None, tiers=None, sut=None, margin=None):
        """POST /api/v1/plans: a dict with tiers (as a DataFrame under 'frame') and warnings."""
        document = self.post("/api/v1/plans", {"profile": profile, "runIds": run_ids, "tiers": tiers,
                                               "sut": sut, "margin": margin})
        document["frame"] = pd.DataFrame(document.get("tiers", []))
        return document

    def sql(self, sql, params=None):
        """POST /api/v1/sql (read-only SELECT over caplab's tables) -> DataFrame typed from ClickHouse's meta."""
        document = self.post("/api/v1/sql", {"sql": sql, "format": "json", "params": params or {}})
        meta = document.get("meta", [])
        frame = pd.DataFrame(document.get("data", []), columns=[m["name"] for m in meta])
        for column in meta:
            kind = column["type"]
            if kind.startswith("DateTime"):
                frame[column["name"]] = pd.to_datetime(frame[column["name"]], utc=True)
            elif any(t in kind for t in _INT_TYPES):
                frame[column["name"]] = pd.to_numeric(frame[column["name"]])
        return frame

    # -- waiting for the pipeline ----------------------------------------------------------------------------

    def wait_for_runs(self, run_ids, timeout_seconds=None, poll_seconds=3):
        """Waits until every run has ended, has a verdict on each of its steps and at least one fit; returns the
        details by run id. Right after `caplab up`, or right after a run was sent, the pipeline (Kafka, Streams, the
        sink) may still be processing it; `CAPLAB_WAIT_SECONDS` (default 600) bounds the wait.
        """
        timeout_seconds = timeout_seconds or float(os.environ.get("CAPLAB_WAIT_SECONDS", "600"))
        deadline = time.monotonic() + timeout_seconds
        pending = list(run_ids)
        details = {}
        last = {}
        while pending:
            for run_id in list(pending):
                try:
                    detail = self.run(run_id)
                except CaplabError as e:
                    if e.status != 404:
                        raise
                    last[run_id] = str(e)
                    continue
                last[run_id] = (detail.get("run") or {}).get("status")
                if concluded(detail):
                    details[run_id] = detail
                    pending.remove(run_id)
            if pending:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"runs {pending} not concluded within {timeout_seconds} s at "
                                       f"{self.base_url} (last seen: {last})")
                time.sleep(poll_seconds)
        return details


# caplab fits a resource from this many steps on; a closed run with fewer has no fit to wait for
MIN_FIT_STEPS = 3


def concluded(detail):
    """True when a run detail is final: the run ended, every step was judged, and the fits are in (or the run
    closed with too few steps for a fit)."""
    steps = detail.get("steps") or []
    ended = (detail.get("run") or {}).get("status") not in (None, "RUNNING")
    judged = steps and all(s.get("passed") is not None or s.get("contaminated") for s in steps)
    closed = (detail.get("conclusion") or {}).get("runClosed")
    fitted = detail.get("fits") or (closed and len(steps) < MIN_FIT_STEPS)
    return bool(ended and judged and fitted)


def resource_kind(metric):
    """cpu, memory or egress for a resource metric name (cpu.cores, mem.bytes, net.tx.bytes, ...)."""
    if metric is None:
        return None
    name = metric.lower()
    if name.startswith("cpu"):
        return "cpu"
    if name.startswith("mem"):
        return "memory"
    if name.startswith("net.tx") or "egress" in name:
        return "egress"
    return name


def step_value(aggregates, metric, source):
    """Per step x -> sustained value of one metric and source (counters: their rate per second).

    Steps only: the API also returns the pre-test baseline (stepIndex -1) and unassigned samples (-2).
    Undefined statistics arrive as the string "NaN" and become NaN here.
    """
    rows = aggregates[(aggregates["metric"] == metric) & (aggregates["source"] == source)
                      & (aggregates["stepIndex"] >= 0)].copy()
    if rows.empty:
        raise AssertionError(f"no step aggregates of {metric} from {source}")
    for column in ("x", "sustained", "peak", "ratePerSecond"):
        if column in rows:
            rows[column] = pd.to_numeric(rows[column], errors="coerce")
    rate = rows["ratePerSecond"] if "ratePerSecond" in rows else pd.Series(float("nan"), index=rows.index)
    rows["value"] = rate.where(rate.notna(), rows["sustained"])
    return rows.sort_values("stepIndex")[["stepIndex", "x", "value", "peak", "contaminated"]].reset_index(drop=True)


# -- units and figures -------------------------------------------------------------------------------------------

def resource_unit(metric):
    """(factor, unit) that turns a resource metric's stored value (cores, bytes, bytes/s) into what a person reads:
    cores, MiB, Mbit/s. Counters (net.*.bytes) are read as their rate per second."""
    kind = resource_kind(metric)
    if kind == "cpu":
        return 1.0, "cores"
    if kind == "memory":
        return 1.0 / 2**20, "MiB"
    if metric and metric.lower().startswith("net.") and metric.lower().endswith(".bytes"):
        return 1.0 / MBIT_BYTES, "Mbit/s"
    return 1.0, ""


def sig(value, digits=3):
    """A number with `digits` significant digits and thousands separators; '–' for none; p-values below 0.001
    are better written with `p_value`."""
    if value is None or (isinstance(value, float) and value != value):
        return "–"
    if value == 0:
        return "0"
    if abs(value) >= 1 and float(f"{value:.{digits}g}").is_integer() and abs(value - round(value)) < 1e-9 * abs(value):
        return f"{round(value):,}"
    magnitude = len(str(int(abs(value)))) if abs(value) >= 1 else 0
    decimals = max(0, digits - magnitude) if abs(value) >= 1 else digits
    text = f"{value:,.{decimals}f}"
    if abs(value) < 1:
        text = f"{value:.{digits}g}"
    return text


def p_value(p):
    """A p-value as people read it: '< 0.001' below that, else three decimals."""
    if p is None:
        return "–"
    return "< 0.001" if p < 0.001 else f"{p:.3f}"


def show_figures(figures):
    """Displays a notebook's headline figures as a table, and carries them as JSON in the same output (mime type
    application/json) so a test or another program can read them from the executed notebook."""
    from IPython.display import display
    rows = "\n".join(f"| {name} | {value if isinstance(value, str) else sig(value, 4)} |"
                     for name, value in figures.items())
    display({"text/markdown": "| figure | value |\n|---|---|\n" + rows,
             "application/json": {k: v for k, v in figures.items()}}, raw=True)
