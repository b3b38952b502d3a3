"""Streams Locust request events and user counts to caplab's events API, live.

Standard library only. Put this file on PYTHONPATH and add ``import caplab_locust`` to your locustfile
(works on every Locust 2.x; tried with Debian's 2.12), then:

    locust -f locustfile.py --caplab-url http://127.0.0.1:8080 --caplab-run RUN_ID

or set CAPLAB_URL, CAPLAB_RUN and CAPLAB_TOKEN. Every request becomes an ``http.req.duration.ms`` gauge
(labels name, method, success) plus ``http.resp.bytes``; every ``spawning_complete`` becomes a ``locust.users``
gauge, so caplab can infer steps from the user count. Samples are sent in batches, once a second, as

    POST {url}/api/v1/events
    Authorization: Bearer {token}
    {"runId": RUN, "adapter": "locust-plugin", "events": [...],
     "samples": [{"timestamp": RFC3339, "source": HOST, "metric": ..., "kind": "GAUGE", "value": ..., "labels": {...}}]}

Optional lifecycle, so a stepped run (a LoadTestShape) needs no ``caplab run start`` / ``caplab step``:

- ``--caplab-sut NAME`` starts the run (``run_started``: sut, tool ``locust``, load expression ``users``, the
  ``--caplab-slo`` rules, repeatable, e.g. ``'p95(http.req.duration.ms)<=200'``) and ends it when Locust quits.
- ``--caplab-steps`` declares a step per load level: each ``spawning_complete`` ends the open step and starts the
  next one (load ``users=N``, the first ``--caplab-warmup`` seconds excluded from sustained figures); the last step
  ends when the test stops. A step therefore starts once its users are spawned: keep the shape's spawn rate high
  enough that a ramp takes well under a second, or it is counted in the step before.

A failed POST keeps its batch and retries on the next flush; past MAX_BUFFER unsent samples the oldest are
discarded and the number discarded is logged, never silently.
"""
import json
import logging
import os
import socket
import threading
import time
import urllib.error
import urllib.request
from datetime import datetime, timezone

from locust import events

FLUSH_SECONDS = 1.0
MAX_BATCH = 5000
MAX_BUFFER = 200_000

log = logging.getLogger("caplab")


class CaplabStream:
    """Buffers samples and posts them to the events API from a background greenlet/thread."""

    def __init__(self, url, run_id, token, source):
        self.endpoint = url.rstrip("/") + "/api/v1/events"
        self.run_id = run_id
        self.token = token
        self.source = source
        self.buffer = []
        # lifecycle events are few and never discarded; each batch carries all pending ones before its samples
        self.events = []
        self.lock = threading.Lock()
        self.discarded = 0
        self.stopping = threading.Event()
        self.worker = threading.Thread(target=self._loop, name="caplab-stream", daemon=True)

    def start(self):
        self.worker.start()

    def event(self, event_type, **fields):
        event = {"type": event_type, "runId": self.run_id}
        event.update(fields)
        with self.lock:
            self.events.append(event)

    def add(self, metric, value, labels):
        sample = {
            "timestamp": now(),
            "source": self.source,
            "metric": metric,
            "kind": "GAUGE",
            "value": float(value),
            "labels": labels,
        }
        with self.lock:
            self.buffer.append(sample)
            overflow = len(self.buffer) - MAX_BUFFER
            if overflow > 0:
                del self.buffer[:overflow]
                self.discarded += overflow
                log.warning("caplab: %d samples discarded so far: %s unreachable", self.discarded, self.endpoint)

    def stop(self):
        self.stopping.set()
        self.worker.join(timeout=10)
        self.flush()

    def _loop(self):
        while not self.stopping.wait(FLUSH_SECONDS):
            self.flush()

    def flush(self):
        while True:
            with self.lock:
                events = list(self.events)
                batch = self.buffer[:MAX_BATCH]
            if not batch and not events:
                return
            if not self._post(events, batch):
                return
            with self.lock:
                del self.events[: len(events)]
                del self.buffer[: len(batch)]

    def _post(self, events, batch):
        body = json.dumps({"runId": self.run_id, "adapter": "locust-plugin", "events": events,
                           "samples": batch}).encode("utf-8")
        request = urllib.request.Request(self.endpoint, data=body, method="POST",
                                         headers={"Content-Type": "application/json"})
        if self.token:
            request.add_header("Authorization", "Bearer " + self.token)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return 200 <= response.status < 300
        except urllib.error.HTTPError as e:
            detail = e.read().decode("utf-8", "replace")[:500]
            log.error("caplab: %s answered %d: %s", self.endpoint, e.code, detail)
            if 400 <= e.code < 500 and e.code not in (408, 429):
                # the batch itself is rejected: retrying it forever would block every later sample
                with self.lock:
                    self.discarded += len(batch)
                log.error("caplab: %d events and %d samples rejected and discarded", len(events), len(batch))
                return True
            return False
        except (urllib.error.URLError, OSError) as e:
            log.warning("caplab: cannot reach %s (%s); will retry", self.endpoint, e)
            return False


def now():
    return datetime.now(timezone.utc).isoformat(timespec="microseconds").replace("+00:00", "Z")


class Steps:
    """One declared step per load level: a spawning_complete ends the open step and starts the next."""

    def __init__(self, stream, warmup_seconds):
        self.stream = stream
        self.warmup_seconds = warmup_seconds
        self.index = -1
        self.open = False

    def level(self, users):
        at = now()
        self.end(at)
        self.index += 1
        self.stream.event("step_started", index=self.index, load={"users": float(users)},
                          warmupSeconds=self.warmup_seconds, startedAt=at)
        self.open = True

    def end(self, at=None):
        if self.open:
            self.stream.event("step_ended", index=self.index, endedAt=at or now())
            self.open = False


stream = None
steps = None
run_started = False


@events.init_command_line_parser.add_listener
def _arguments(parser):
    parser.add_argument("--caplab-url", default=os.environ.get("CAPLAB_URL", ""),
                        help="caplab ingest base URL, e.g. http://127.0.0.1:8080")
    parser.add_argument("--caplab-run", default=os.environ.get("CAPLAB_RUN", ""), help="caplab run id")
    parser.add_argument("--caplab-token", default=os.environ.get("CAPLAB_TOKEN", ""), help="bearer token (write)")
    parser.add_argument("--caplab-source", default=os.environ.get("CAPLAB_SOURCE", socket.gethostname()),
                        help="source name of this load generator")
    parser.add_argument("--caplab-sut", default=os.environ.get("CAPLAB_SUT", ""),
                        help="system under test: when set, the plugin starts the run and ends it on quit")
    parser.add_argument("--caplab-slo", action="append", default=[],
                        help="SLO rule of the run started with --caplab-sut, repeatable: 'p95(http.req.duration.ms)<=200'")
    parser.add_argument("--caplab-steps", action="store_true", default=os.environ.get("CAPLAB_STEPS", "") == "1",
                        help="declare a step (load users=N) at every spawning_complete")
    parser.add_argument("--caplab-warmup", type=float, default=float(os.environ.get("CAPLAB_WARMUP", "0")),
                        help="seconds at the start of each declared step excluded from sustained figures")


@events.init.add_listener
def _init(environment, **_kwargs):
    global stream, steps, run_started
    options = environment.parsed_options
    if options is None or not options.caplab_url or not options.caplab_run:
        log.warning("caplab: --caplab-url and --caplab-run not set; not streaming")
        return
    stream = CaplabStream(options.caplab_url, options.caplab_run, options.caplab_token, options.caplab_source)
    if options.caplab_sut:
        stream.event("run_started", sut=options.caplab_sut, tool="locust", loadExpression="users",
                     slo=list(options.caplab_slo), startedAt=now())
        run_started = True
    if options.caplab_steps:
        steps = Steps(stream, options.caplab_warmup)
    stream.start()


@events.request.add_listener
def _request(request_type, name, response_time, response_length, exception=None, **_kwargs):
    if stream is None:
        return
    labels = {"name": name, "method": request_type or "", "success": "false" if exception else "true"}
    if exception:
        labels["error"] = repr(exception)[:200]
    stream.add("http.req.duration.ms", response_time, labels)
    if response_length is not None:
        stream.add("http.resp.bytes", response_length, labels)


@events.spawning_complete.add_listener
def _spawned(user_count, **_kwargs):
    if stream is not None:
        stream.add("locust.users", user_count, {})
    if steps is not None:
        steps.level(user_count)


@events.test_stopping.add_listener
def _stopping(**_kwargs):
    if steps is not None:
        steps.end()


@events.quitting.add_listener
def _quitting(**_kwargs):
    if stream is not None:
        if steps is not None:
            steps.end()
        if run_started:
            stream.event("run_ended", status="COMPLETED", endedAt=now())
        stream.stop()
