import random
from locust import HttpUser, task, between

class Web(HttpUser):
    wait_time = between(0.05, 0.2)

    @task(5)
    def index(self):
        self.client.get("/")

    @task(1)
    def missing(self):
        self.client.get("/missing")

    @task(1)
    def boom(self):
        if random.random() < 0.3:
            raise ValueError("synthetic task failure")
        self.client.get("/", name="/home")
