# LiveRunIT's load, plain Locust with no caplab plugin (caplab reads its --csv files): every user paces itself to
# RATE requests per second (constant_throughput) over two endpoints, and the shape holds each user count of LEVELS
# for STEP_SECONDS, spawning each level at once, then stops. The last level is held 10 s longer: Locust flushes its
# CSV files every 10 s and not at exit, so up to 10 s of the last rows never reach the history file. LEVELS, STEP_SECONDS and RATE come from the IT
# (CAPLAB_IT_* variables) so the numbers the test asserts are defined in one place.
import os

from locust import HttpUser, LoadTestShape, constant_throughput, task

LEVELS = [int(level) for level in os.environ["CAPLAB_IT_LEVELS"].split(",")]
STEP_SECONDS = float(os.environ["CAPLAB_IT_STEP_SECONDS"])
RATE = float(os.environ["CAPLAB_IT_RATE"])
FLUSH_SECONDS = 10


class Client(HttpUser):
    wait_time = constant_throughput(RATE)

    @task(3)
    def burn(self):
        self.client.get("/burn")

    @task(1)
    def status(self):
        self.client.get("/status")


class Stepped(LoadTestShape):
    def tick(self):
        step = min(int(self.get_run_time() // STEP_SECONDS), len(LEVELS) - 1)
        if self.get_run_time() >= len(LEVELS) * STEP_SECONDS + FLUSH_SECONDS:
            return None
        return LEVELS[step], 100
