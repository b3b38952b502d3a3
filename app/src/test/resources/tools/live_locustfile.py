# LiveRunIT's load, plain Locust with no caplab plugin (caplab reads its --csv files): every user paces itself to
# RATE requests per second (constant_throughput) over two endpoints, and the shape holds each user count of LEVELS
# for STEP_SECONDS, spawning each level at once, then stops. LEVELS, STEP_SECONDS and RATE come from the IT
# (CAPLAB_IT_* variables) so the numbers the test asserts are defined in one place.
import os

from locust import HttpUser, LoadTestShape, constant_throughput, task

LEVELS = [int(level) for level in os.environ["CAPLAB_IT_LEVELS"].split(",")]
STEP_SECONDS = float(os.environ["CAPLAB_IT_STEP_SECONDS"])
RATE = float(os.environ["CAPLAB_IT_RATE"])


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
        step = int(self.get_run_time() // STEP_SECONDS)
        if step >= len(LEVELS):
            return None
        return LEVELS[step], 100
