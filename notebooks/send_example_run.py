"""Sends one stepped HTTP load test to caplab, as a k6 run with a host sampler would, in one POST /api/v1/events.

    python3 send_example_run.py [--run-id ID] [--saturate-at USERS] [--sut-version V] [--hours-ago H]
                                [--steps N] [--step-users USERS]

A stand-in for "your own run" when no load tool is at hand, and the fresh run CI points the notebooks at. The
server it describes: every user sends one request per second until the server saturates at --saturate-at users;
past that the request rate stays there and each further user adds 25 ms of queueing to every request (40 ms
before). CPU is 0.2 cores + 0.03 cores per request/s. The run declares the SLO p95(http_req_duration) <= 500 ms and
ends with allSamplesSent, so caplab concludes it without waiting. Prints the run id caplab stored it under.
"""

import argparse
import datetime as dt
import gzip
import json
import random
import sys
import urllib.request

from caplab_client import CaplabClient

STEP_SECONDS = 20
WARMUP_SECONDS = 4
BASE_LATENCY_MS = 40.0
QUEUEING_MS_PER_USER = 25.0
BASE_CORES = 0.2
CORES_PER_REQUEST_PER_S = 0.03


def latency_ms(users, saturate_at):
    return BASE_LATENCY_MS + QUEUEING_MS_PER_USER * max(0.0, users - saturate_at)


def body(run_id, saturate_at, steps, step_users, started_at, version="1.0", seed=7):
    random.seed(seed)
    iso = lambda t: t.isoformat().replace("+00:00", "Z")
    events = [{"type": "run_started", "sut": "example-shop", "sutVersion": version, "provider": "lab",
               "tier": "4vcpu-8gb", "vcpu": 4, "memoryBytes": 8 * 2**30, "tool": "k6", "loadExpression": "users",
               "slo": ["p95(http_req_duration)<=500"], "labels": {"example": "true"}, "startedAt": iso(started_at)}]
    samples = []
    for step in range(steps):
        users = step_users * (step + 1)
        start = started_at + dt.timedelta(seconds=STEP_SECONDS * step)
        events.append({"type": "step_started", "index": step, "load": {"users": users},
                       "warmupSeconds": WARMUP_SECONDS, "startedAt": iso(start)})
        rate = int(min(users, saturate_at))
        for second in range(STEP_SECONDS):
            t = start + dt.timedelta(seconds=second)
            for request in range(rate):
                at = t + dt.timedelta(microseconds=int(1e6 * request / rate))
                value = latency_ms(users, saturate_at) * random.uniform(0.9, 1.1)
                samples.append({"timestamp": iso(at), "source": "k6", "metric": "http_req_duration",
                                "kind": "GAUGE", "value": round(value, 3), "labels": {"name": "GET /cart"}})
            if second % 2 == 0:
                cores = BASE_CORES + CORES_PER_REQUEST_PER_S * rate + random.uniform(-0.02, 0.02)
                samples.append({"timestamp": iso(t), "source": "shop-host", "metric": "cpu.cores",
                                "kind": "GAUGE", "value": round(cores, 4)})
        events.append({"type": "step_ended", "index": step,
                       "endedAt": iso(start + dt.timedelta(seconds=STEP_SECONDS))})
    events.append({"type": "run_ended", "status": "COMPLETED", "allSamplesSent": True,
                   "endedAt": iso(started_at + dt.timedelta(seconds=STEP_SECONDS * steps))})
    return {"runId": run_id, "events": events, "samples": samples}


def send(client, document):
    data = gzip.compress(json.dumps(document).encode("utf-8"))
    headers = {"Content-Type": "application/json", "Content-Encoding": "gzip", "Accept": "application/json"}
    if client.token:
        headers["Authorization"] = "Bearer " + client.token
    request = urllib.request.Request(client.base_url + "/api/v1/events", data=data, headers=headers, method="POST")
    with urllib.request.urlopen(request, timeout=client.timeout_seconds) as response:
        stored = response.headers.get("X-Caplab-Run") or document["runId"]
    return stored.split(",")[0].strip()


def history(client, prefix, runs_of_v1=3, runs_of_v2=4, saturate_v1=50, saturate_v2=30, steps=8, step_users=10):
    """A history of one cohort: runs of version 1.0 saturating at saturate_v1 users, then runs of 2.0 that saturate
    earlier, one a day apart, oldest first. Returns the run ids as stored."""
    now = dt.datetime.now(dt.timezone.utc).replace(microsecond=0)
    total = runs_of_v1 + runs_of_v2
    stored = []
    for i in range(total):
        v2 = i >= runs_of_v1
        started_at = now - dt.timedelta(days=total - i, hours=1)
        stored.append(send(client, body(f"{prefix}-{i + 1}", saturate_v2 if v2 else saturate_v1, steps, step_users,
                                        started_at, "2.0" if v2 else "1.0", seed=i)))
    return stored


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--run-id", default="example-shop-" + dt.datetime.now(dt.timezone.utc).strftime("%Y%m%dT%H%M%S"))
    parser.add_argument("--saturate-at", type=float, default=40, help="users at which requests/s stop growing")
    parser.add_argument("--steps", type=int, default=8)
    parser.add_argument("--step-users", type=float, default=10, help="users added per step")
    parser.add_argument("--sut-version", default="1.0")
    parser.add_argument("--hours-ago", type=float, default=1, help="when the run started, before now")
    parser.add_argument("--history", action="store_true",
                        help="send a history instead: 3 runs of 1.0 saturating at 50 users, then 4 of 2.0 at 30, "
                             "a day apart, ids RUN_ID-1 ... RUN_ID-7")
    args = parser.parse_args(argv)
    if args.history:
        print("\n".join(history(CaplabClient(), args.run_id)))
        return 0
    # in the past, so every sample is in and the run is judged at once
    started_at = (dt.datetime.now(dt.timezone.utc) - dt.timedelta(hours=args.hours_ago)).replace(microsecond=0)
    document = body(args.run_id, args.saturate_at, args.steps, args.step_users, started_at, args.sut_version)
    print(send(CaplabClient(), document))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
