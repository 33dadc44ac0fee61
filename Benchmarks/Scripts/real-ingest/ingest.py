#!/usr/bin/env python3
"""A batch ingest in a process of its own, for the real-ingest benchmark (see compare.py for how to run it).

Python's `http.server.ThreadingHTTPServer`, HTTP/1.1 with keep-alive (a connection stays open until the client
closes it or stays idle for `--idle-timeout` seconds), optionally wrapped in `ssl` with the certificate the
driver made for the run. It listens on 127.0.0.1 only.

Every POST is a batch: `{"batch": [event, ...], ...}`, gzip-decoded when `Content-Encoding: gzip`. The path is
not checked (SDK Core posts to `/b`, segment-analytics-python to `/v1/batch`). Each event is deduplicated by
`messageId`; for the first copy of each, the receive wall clock is recorded and the latency is the receive time
minus the event's own `timestamp` (ISO-8601; SDK Core writes milliseconds, so its latencies read up to 1 ms
high). The answer (`200 {}`) is sent `--delay-ms` after the body arrived.

Counted: requests, requests that were not the first on their connection (reused), TCP connections accepted,
TLS handshakes completed (and of those, resumed sessions), requests whose body did not arrive in full (the
headers came, then the body stalled or the connection closed), and events received / unique.

While it runs it keeps `--progress FILE` up to date (rewritten atomically at most every 50 ms when the count
changed): one line, `<unique bench events> <wall clock of the latest one>`. The clients read it to know when
the ingest holds everything. Answers are written in one piece on TCP_NODELAY sockets, as production HTTP
servers do: Python's defaults (two writes, Nagle on) add a delayed-ACK stall to every answer on a reused
connection (`--python-writes` restores them, to measure what they change). On SIGTERM or SIGINT it writes the full report as JSON to `--report FILE` and exits.
"""

import argparse
import datetime
import gzip
import http.server
import json
import os
import signal
import socket
import ssl
import sys
import threading
import time

BENCH_EVENT_NAME = "purchase"


class Tally:
    """Everything the ingest saw; guarded by one lock."""

    def __init__(self):
        self.lock = threading.Lock()
        self.requests = 0
        self.reused_requests = 0
        self.connections = 0
        self.handshakes = 0
        self.resumed_handshakes = 0
        self.failed_handshakes = 0
        self.incomplete_bodies = 0
        self.undecodable_bodies = 0
        self.events = 0
        self.bench_events = 0
        self.seen = set()
        self.unique_bench = 0
        self.latencies = []
        self.first_receive = None
        self.last_receive = None
        self.body_bytes = 0
        self.gzip_bodies = 0
        self.largest_batch = 0
        self.changed = threading.Event()

    def record_batch(self, events, received):
        with self.lock:
            self.largest_batch = max(self.largest_batch, len(events))
            for event in events:
                if not isinstance(event, dict):
                    continue
                self.events += 1
                is_bench = event.get("event") == BENCH_EVENT_NAME
                if is_bench:
                    self.bench_events += 1
                message_id = event.get("messageId")
                if message_id is None or message_id in self.seen:
                    continue
                self.seen.add(message_id)
                if not is_bench:
                    continue
                self.unique_bench += 1
                stamp = parse_timestamp(event.get("timestamp"))
                if stamp is not None:
                    self.latencies.append(received - stamp)
                if self.first_receive is None:
                    self.first_receive = received
                self.last_receive = received
        self.changed.set()


def parse_timestamp(text):
    """Seconds since the epoch of an ISO-8601 timestamp (`Z` or an offset), or None."""
    if not isinstance(text, str):
        return None
    try:
        if text.endswith("Z"):
            text = text[:-1] + "+00:00"
        return datetime.datetime.fromisoformat(text).timestamp()
    except ValueError:
        return None


def percentile(values, fraction):
    if not values:
        return None
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, int(round(fraction * (len(ordered) - 1)))))
    return ordered[index]


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "real-ingest/1"
    sys_version = ""

    def setup(self):
        self.timeout = self.server.idle_timeout
        super().setup()
        self.requests_on_connection = 0

    def log_message(self, format, *args):
        pass

    def do_POST(self):
        tally = self.server.tally
        self.requests_on_connection += 1
        with tally.lock:
            tally.requests += 1
            if self.requests_on_connection > 1:
                tally.reused_requests += 1
        body = self.read_body()
        if body is None:
            with tally.lock:
                tally.incomplete_bodies += 1
            self.close_connection = True
            return
        received = time.time()
        events = self.decode(body)
        if events is None:
            with tally.lock:
                tally.undecodable_bodies += 1
            self.answer(400, b'{"error":"not a batch"}')
            return
        tally.record_batch(events, received)
        if self.server.delay > 0:
            time.sleep(self.server.delay)
        self.answer(200, b"{}")

    def do_GET(self):
        self.answer(404, b"{}")

    def read_body(self):
        """The request body, or None when it did not arrive in full (stall, close, or a malformed length)."""
        try:
            if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
                return self.read_chunked()
            length = int(self.headers.get("Content-Length", "0"))
            if length < 0 or length > 64 * 1024 * 1024:
                return None
            body = self.rfile.read(length)
            return body if len(body) == length else None
        except (OSError, ValueError):
            return None

    def read_chunked(self):
        parts = []
        total = 0
        while True:
            size = int(self.rfile.readline(1024).split(b";")[0].strip() or b"x", 16)
            if size == 0:
                while self.rfile.readline(1024) not in (b"\r\n", b"\n", b""):
                    pass
                return b"".join(parts)
            total += size
            if total > 64 * 1024 * 1024:
                return None
            chunk = self.rfile.read(size)
            if len(chunk) != size:
                return None
            parts.append(chunk)
            self.rfile.readline(1024)

    def decode(self, body):
        tally = self.server.tally
        try:
            if self.headers.get("Content-Encoding", "").lower() == "gzip":
                with tally.lock:
                    tally.gzip_bodies += 1
                body = gzip.decompress(body)
            with tally.lock:
                tally.body_bytes += len(body)
            document = json.loads(body)
        except (OSError, ValueError, EOFError):
            return None
        if not isinstance(document, dict) or not isinstance(document.get("batch"), list):
            return None
        return document["batch"]

    def answer(self, status, payload):
        if self.server.python_writes:
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)
                self.wfile.flush()
            except OSError:
                self.close_connection = True
            return
        # Status line, headers and body in one write: with two small writes, Nagle's algorithm holds the second
        # until the client's delayed ACK of the first (up to 40 ms on Linux), a stall of the benchmark's making
        # on every reused connection.
        reason = self.responses.get(status, ("",))[0]
        head = "%s %d %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n" % (
            self.protocol_version, status, reason, len(payload))
        if self.close_connection:
            head += "Connection: close\r\n"
        try:
            self.wfile.write(head.encode("latin-1") + b"\r\n" + payload)
            self.wfile.flush()
        except OSError:
            self.close_connection = True


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128
    allow_reuse_address = True

    def __init__(self, port, tls_context, delay, idle_timeout, python_writes):
        self.tally = Tally()
        self.python_writes = python_writes
        self.tls_context = tls_context
        self.delay = delay
        self.idle_timeout = idle_timeout
        super().__init__(("127.0.0.1", port), Handler)

    def get_request(self):
        connection, address = self.socket.accept()
        # As HTTP servers do for keep-alive connections (see `answer`).
        if not self.python_writes:
            connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        with self.tally.lock:
            self.tally.connections += 1
        return connection, address

    def finish_request(self, request, client_address):
        # The TLS handshake runs here, on the connection's own thread, so a slow client delays nobody else.
        if self.tls_context is None:
            self.RequestHandlerClass(request, client_address, self)
            return
        request.settimeout(self.idle_timeout)
        try:
            secure = self.tls_context.wrap_socket(request, server_side=True, do_handshake_on_connect=False)
            secure.do_handshake()
        except (OSError, ssl.SSLError):
            with self.tally.lock:
                self.tally.failed_handshakes += 1
            return
        with self.tally.lock:
            self.tally.handshakes += 1
            if secure.session_reused:
                self.tally.resumed_handshakes += 1
        try:
            self.RequestHandlerClass(secure, client_address, self)
        finally:
            try:
                secure.close()
            except OSError:
                pass

    def handle_error(self, request, client_address):
        pass


def report(server, started, arguments):
    tally = server.tally
    with tally.lock:
        latencies = list(tally.latencies)
        result = {
            "tls": arguments.cert is not None,
            "delay_ms": arguments.delay_ms,
            "started": started,
            "requests": tally.requests,
            "reused_requests": tally.reused_requests,
            "connections": tally.connections,
            "tls_handshakes": tally.handshakes,
            "tls_resumed": tally.resumed_handshakes,
            "tls_failed_handshakes": tally.failed_handshakes,
            "incomplete_bodies": tally.incomplete_bodies,
            "undecodable_bodies": tally.undecodable_bodies,
            "events_received": tally.events,
            "bench_events_received": tally.bench_events,
            "unique_events": len(tally.seen),
            "unique_bench_events": tally.unique_bench,
            "duplicates": tally.events - len(tally.seen),
            "body_bytes": tally.body_bytes,
            "gzip_bodies": tally.gzip_bodies,
            "largest_batch": tally.largest_batch,
            "first_receive": tally.first_receive,
            "last_receive": tally.last_receive,
        }
    result["latency_p50"] = percentile(latencies, 0.50)
    result["latency_p99"] = percentile(latencies, 0.99)
    result["latency_max"] = max(latencies) if latencies else None
    usage = os.times()
    result["ingest_cpu_seconds"] = usage.user + usage.system
    return result


def write_progress(path, tally, stop):
    written = None
    while not stop.is_set():
        tally.changed.wait(0.5)
        tally.changed.clear()
        with tally.lock:
            current = (tally.unique_bench, tally.last_receive or 0.0)
        if current != written:
            temporary = path + ".tmp"
            with open(temporary, "w") as file:
                file.write("%d %.6f\n" % current)
            os.replace(temporary, path)
            written = current
        time.sleep(0.05)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (0: any free one)")
    parser.add_argument("--port-file", required=True, help="where the chosen port is written once listening")
    parser.add_argument("--report", required=True, help="where the JSON report is written on SIGTERM")
    parser.add_argument("--progress", required=True, help="the progress file the clients read")
    parser.add_argument("--cert", help="server certificate chain (PEM); with --key, serve TLS")
    parser.add_argument("--key", help="server private key (PEM)")
    parser.add_argument("--delay-ms", type=float, default=20.0, help="how long each answer waits (ms)")
    parser.add_argument("--idle-timeout", type=float, default=60.0, help="idle/stall limit per connection (s)")
    parser.add_argument("--python-writes", action="store_true",
                        help="answer as http.server does by default (headers and body in two writes, Nagle on)")
    parser.add_argument("--max-seconds", type=float, default=1800.0, help="exit after this long regardless")
    arguments = parser.parse_args()

    context = None
    if arguments.cert:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(arguments.cert, arguments.key)
    server = Server(arguments.port, context, arguments.delay_ms / 1000.0, arguments.idle_timeout,
                    arguments.python_writes)
    started = time.time()
    stop = threading.Event()

    def finish(*_):
        stop.set()

    signal.signal(signal.SIGTERM, finish)
    signal.signal(signal.SIGINT, finish)
    serving = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True)
    serving.start()
    progress = threading.Thread(target=write_progress, args=(arguments.progress, server.tally, stop), daemon=True)
    progress.start()
    temporary = arguments.port_file + ".tmp"
    with open(temporary, "w") as file:
        file.write("%d\n" % server.server_address[1])
    os.replace(temporary, arguments.port_file)
    stop.wait(arguments.max_seconds)
    server.shutdown()
    result = report(server, started, arguments)
    temporary = arguments.report + ".tmp"
    with open(temporary, "w") as file:
        json.dump(result, file, indent=1)
    os.replace(temporary, arguments.report)
    server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
