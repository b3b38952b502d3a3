# LiveRunIT's system under test: a CPU-bound HTTP server, one thread per connection. GET /burn spins until its
# thread has used CPU_MILLIS of CPU time (time.thread_time, so waiting for the GIL or the core is not counted as
# work done); GET /status answers at once. Prints "listening PORT" once bound to an ephemeral loopback port.
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

CPU_SECONDS = float(sys.argv[1]) / 1000.0


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        if self.path.startswith("/burn"):
            until = time.thread_time() + CPU_SECONDS
            x = 1.0
            while time.thread_time() < until:
                for _ in range(200):
                    x = (x * 1.000001 + 1.0) % 1000.0
        body = b"ok\n"
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print("listening", server.server_address[1], flush=True)
server.serve_forever()
