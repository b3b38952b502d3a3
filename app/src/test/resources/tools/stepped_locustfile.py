# LocustPluginIT's load: every user paces itself to RATE requests per second (constant_throughput), and the shape
# holds each user count of LEVELS for STEP_SECONDS, spawning each level at once. All three come from the IT
# (CAPLAB_IT_* variables) so the numbers the test asserts are defined in one place.
import os

import caplab_locust  # noqa: F401  (registers the caplab plugin's options and listeners)
from locust import HttpUser, LoadTestShape, constant_throughput, task

LEVELS = [int(level) for level in os.environ["CAPLAB_IT_LEVELS"].split(",")]
STEP_SECONDS = float(os.environ["CAPLAB_IT_STEP_SECONDS"])
RATE = float(os.environ["CAPLAB_IT_RATE"])


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
