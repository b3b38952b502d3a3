"""Streams Locust request events and user counts to caplab's events API, live.

Standard library only. Put this file on PYTHONPATH and add ``import caplab_locust`` to your locustfile
(works on every Locust 2.x; tried with Debian's 2.12), then:

    locust -f locustfile.py --caplab-url http://127.0.0.1:8080 --caplab-run RUN_ID

or set CAPLAB_URL, CAPLAB_RUN and CAPLAB_TOKEN. Every request becomes an ``http.req.duration.ms`` gauge
(labels name, method, success) plus ``http.resp.bytes``; every ``spawning_complete`` becomes a ``locust.users``
gauge, so caplab can infer steps from the user count. Samples are sent in batches, once a second, as

    POST {url}/api/v1/events
    Authorization: Bearer {token}
    {"runId": RUN, "adapter": "locust-plugin",
     "samples": [{"timestamp": RFC3339, "source": HOST, "metric": ..., "kind": "GAUGE", "value": ..., "labels": {...}}]}

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
        self.lock = threading.Lock()
        self.discarded = 0
        self.stopping = threading.Event()
        self.worker = threading.Thread(target=self._loop, name="caplab-stream", daemon=True)

    def start(self):
        self.worker.start()

    def add(self, metric, value, labels):
        sample = {
            "timestamp": datetime.now(timezone.utc).isoformat(timespec="microseconds").replace("+00:00", "Z"),
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
                batch = self.buffer[:MAX_BATCH]
            if not batch:
                return
            if not self._post(batch):
                return
            with self.lock:
                del self.buffer[: len(batch)]

    def _post(self, batch):
        body = json.dumps({"runId": self.run_id, "adapter": "locust-plugin", "samples": batch}).encode("utf-8")
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
                log.error("caplab: %d samples rejected and discarded", len(batch))
                return True
            return False
        except (urllib.error.URLError, OSError) as e:
            log.warning("caplab: cannot reach %s (%s); will retry", self.endpoint, e)
            return False


stream = None


@events.init_command_line_parser.add_listener
def _arguments(parser):
    parser.add_argument("--caplab-url", default=os.environ.get("CAPLAB_URL", ""),
                        help="caplab ingest base URL, e.g. http://127.0.0.1:8080")
    parser.add_argument("--caplab-run", default=os.environ.get("CAPLAB_RUN", ""), help="caplab run id")
    parser.add_argument("--caplab-token", default=os.environ.get("CAPLAB_TOKEN", ""), help="bearer token (write)")
    parser.add_argument("--caplab-source", default=os.environ.get("CAPLAB_SOURCE", socket.gethostname()),
                        help="source name of this load generator")


@events.init.add_listener
def _init(environment, **_kwargs):
    global stream
    options = environment.parsed_options
    if options is None or not options.caplab_url or not options.caplab_run:
        log.warning("caplab: --caplab-url and --caplab-run not set; not streaming")
        return
    stream = CaplabStream(options.caplab_url, options.caplab_run, options.caplab_token, options.caplab_source)
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


@events.quitting.add_listener
def _quitting(**_kwargs):
    if stream is not None:
        stream.stop()
