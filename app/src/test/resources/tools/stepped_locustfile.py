# LocustPluginIT's load: every user paces itself to RATE requests per second (constant_throughput), and the shape
# holds each user count of LEVELS for STEP_SECONDS, spawning each level at once. All three come from the IT
# (CAPLAB_IT_* variables) so the numbers the test asserts are defined in one place.
#
# The IT's oracle, written when Locust quits to CAPLAB_IT_ORACLE: Locust's own final request count (its --csv
# files are rewritten once a second by a greenlet, with no last write at exit, so requests of the final second can
# be missing there) and the completion time of every request as Locust's request event reported it (its stats
# history stamps rows with whole seconds, too coarse to split a step's boundary second).
import json
import os
import time

import caplab_locust  # noqa: F401  (registers the caplab plugin's options and listeners)
from locust import HttpUser, LoadTestShape, constant_throughput, events, task

LEVELS = [int(level) for level in os.environ["CAPLAB_IT_LEVELS"].split(",")]
STEP_SECONDS = float(os.environ["CAPLAB_IT_STEP_SECONDS"])
RATE = float(os.environ["CAPLAB_IT_RATE"])
ORACLE = os.environ["CAPLAB_IT_ORACLE"]

oracle = {"environment": None, "completions": []}


@events.init.add_listener
def _remember(environment, **_kwargs):
    oracle["environment"] = environment


@events.request.add_listener
def _completed(exception=None, **_kwargs):
    if exception is None:
        oracle["completions"].append(time.time())


@events.quit.add_listener
def _write_oracle(**_kwargs):
    with open(ORACLE, "w") as out:
        json.dump({"requests": oracle["environment"].stats.total.num_requests,
                   "completions": oracle["completions"]}, out)


class Client(HttpUser):
    wait_time = constant_throughput(RATE)

    @task
    def work(self):
        self.client.get("/work")


class Stepped(LoadTestShape):
    def tick(self):
        step = int(self.get_run_time() // STEP_SECONDS)
        if step >= len(LEVELS):
            return None
        return LEVELS[step], 100
