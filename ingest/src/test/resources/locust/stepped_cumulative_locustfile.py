# How stepped_cumulative_stats_history.csv was made (2026-12-06): Debian's Locust 2.12.1 (python3-locust 2.12.1-1)
# against `python3 -m http.server` serving a directory with one index.html,
#   locust -f stepped_cumulative_locustfile.py --headless --host http://127.0.0.1:PORT --csv out
# WITHOUT --csv-full-history, so out_stats_history.csv has only Aggregated rows and their percentiles are since start.
# Users hold 2, 5 and 10 for 22 s each (the last 8 s longer), each paced to 5 requests/s; one request in five asks
# for a missing file (404, a failure).
from locust import HttpUser, LoadTestShape, constant_throughput, task

LEVELS = [2, 5, 10]
STEP_SECONDS = 22
LAST_STEP_EXTRA_SECONDS = 8


class Client(HttpUser):
    wait_time = constant_throughput(5)

    @task(4)
    def listing(self):
        self.client.get("/")

    @task(1)
    def missing(self):
        self.client.get("/missing")


class Stepped(LoadTestShape):
    def tick(self):
        run_time = self.get_run_time()
        if run_time >= len(LEVELS) * STEP_SECONDS + LAST_STEP_EXTRA_SECONDS:
            return None
        return LEVELS[min(int(run_time // STEP_SECONDS), len(LEVELS) - 1)], 100
