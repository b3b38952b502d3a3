# LocustCsvCountIT's load: four endpoints (GET /a, POST /b, GET /c, which the user marks failed, and GET /unavailable,
# which the server answers 500: failEvery=1), every user
# paced to RATE requests per second (constant_throughput), and a shape that holds each user count of LEVELS for
# STEP_SECONDS (the last LAST_STEP_EXTRA_SECONDS
# longer), spawning each level at once. All three come from the IT (CAPLAB_IT_* variables).
import os

from locust import HttpUser, LoadTestShape, constant_throughput, task

LEVELS = [int(level) for level in os.environ["CAPLAB_IT_LEVELS"].split(",")]
STEP_SECONDS = float(os.environ["CAPLAB_IT_STEP_SECONDS"])
RATE = float(os.environ["CAPLAB_IT_RATE"])
LAST_STEP_EXTRA_SECONDS = float(os.environ["CAPLAB_IT_LAST_STEP_EXTRA_SECONDS"])


class Client(HttpUser):
    wait_time = constant_throughput(RATE)

    @task(3)
    def read(self):
        self.client.get("/a")

    @task(1)
    def write(self):
        self.client.post("/b", data="x")

    @task(1)
    def refused(self):
        with self.client.get("/c", catch_response=True) as response:
            response.failure("designed failure")

    @task(1)
    def unavailable(self):
        self.client.get("/unavailable?failEvery=1", name="/unavailable")


class Stepped(LoadTestShape):
    def tick(self):
        run_time = self.get_run_time()
        if run_time >= len(LEVELS) * STEP_SECONDS + LAST_STEP_EXTRA_SECONDS:
            return None
        return LEVELS[min(int(run_time // STEP_SECONDS), len(LEVELS) - 1)], 100
