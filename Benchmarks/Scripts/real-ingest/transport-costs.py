#!/usr/bin/env python3
"""What one request costs the client process, per transport: the figures of issue 28's table that need no
instance, measured with the `TransportProbe` helper (Tests/TransportProbe, a release build) against the hostile
peer of the tests (Tests/TransportTests/Support/hostile_peer.py, Python's `socket` and `ssl`), each in a process
of its own on 127.0.0.1.

FIGURES (each run is a fresh probe process; medians over --rounds, min-max beside them)
  wait     the client's CPU (user + system, every thread, getrusage) while one request waits --wait-seconds on a
           peer that read it and never answers; the request ends at its deadline (the same length). New
           connection, plain HTTP.
  memory   how far the client's peak resident size grows (VmHWM after - VmRSS before, the peak reset through
           /proc/self/clear_refs) during one request whose answer is an endless chunked body, and one whose answer
           declares 2 000 MiB; both after a first request on the same connection.
  post     the client's CPU per request for --posts POSTs of a ~7 KB batch, one after another on one kept TLS
           connection to the peer (Python `ssl`, ECDSA P-256 certificate from a throwaway CA), each answered
           `200 {}` at once; after one warm-up request on the connection.

TRUST (post)
  FoundationNetworking on Linux reads its CA bundle from the system path only, so every probe runs in a private
  mount namespace (`unshare --mount`, root needed) where a bundle = the system bundle + the run's CA is bind-mounted
  over /etc/ssl/certs/ca-certificates.crt (as compare.py does); transports that take a CA file get it too.

USAGE (from the repository root)
  swift build -c release --product TransportProbe
  python3 Benchmarks/Scripts/real-ingest/transport-costs.py --probe .build/release/TransportProbe \\
      --transports urlsession,curl --rounds 3 | tee transport-costs.txt

The machine's 1-minute load average is printed beside every run: on a shared machine CPU figures move with it.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PEER = os.path.join(HERE, "..", "..", "..", "Tests", "TransportTests", "Support", "hostile_peer.py")
SYSTEM_BUNDLE = "/etc/ssl/certs/ca-certificates.crt"
OK = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"
OK_JSON = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"


def load():
    with open("/proc/loadavg") as file:
        return float(file.read().split()[0])


class Peer:
    def __init__(self):
        self.process = subprocess.Popen(
            [sys.executable, PEER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        ready = self.process.stdout.readline().split()
        if not ready or ready[0] != "ready":
            raise SystemExit("the hostile peer did not start")
        self.certificates = ready[1]
        self.count = 0

    def open(self, spec):
        self.count += 1
        identifier = "b%d" % self.count
        self.process.stdin.write("open %s %s\n" % (identifier, json.dumps(spec)))
        self.process.stdin.flush()
        words = self.process.stdout.readline().split()
        if words[:2] != [identifier, "opened"]:
            raise SystemExit("the hostile peer refused %s: %s" % (spec, words))
        scheme = "https" if spec.get("tls") else "http"
        return "%s://127.0.0.1:%s/b" % (scheme, words[2])

    def close(self):
        self.process.stdin.close()
        self.process.wait(10)


def probe(arguments, bundle, ca_file, transport, timeout_ms, urls, extra=()):
    command = [arguments.probe, transport, "events", str(timeout_ms), "--ca", ca_file, *extra, *urls]
    if bundle:
        command = ["unshare", "--mount", "--propagation", "private", "sh", "-c",
                   'mount --bind "$0" %s && exec "$@"' % SYSTEM_BUNDLE, bundle, *command]
    before = load()
    result = subprocess.run(command, capture_output=True, text=True, timeout=timeout_ms / 1000 * len(urls) + 600)
    record = {"load": before, "status": result.returncode, "outcomes": []}
    for line in result.stdout.splitlines():
        words = line.split()
        if words and words[0] in ("answer", "error"):
            record["outcomes"].append(" ".join(words[:2]))
        elif words and words[0] == "cost":
            for word in words[1:]:
                key, _, value = word.partition("=")
                record[key] = int(value)
    return record


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--probe", required=True, help="the TransportProbe executable (a release build)")
    parser.add_argument("--transports", default="urlsession", help="comma-separated names the probe knows")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--wait-seconds", type=int, default=20)
    parser.add_argument("--posts", type=int, default=1000)
    parser.add_argument("--post-bytes", type=int, default=7000)
    parser.add_argument("--only", default="wait,memory,post", help="comma-separated figures to measure")
    parser.add_argument("--json", help="append every run as one JSON line to this file")
    arguments = parser.parse_args()
    figures = arguments.only.split(",")
    transports = arguments.transports.split(",")

    peer = Peer()
    scratch = tempfile.mkdtemp(prefix="transport-costs-")
    bundle = None
    ca_file = os.path.join(peer.certificates, "ca.pem")
    if os.geteuid() == 0 and shutil.which("unshare"):
        bundle = os.path.join(scratch, "bundle.pem")
        with open(bundle, "w") as out, open(SYSTEM_BUNDLE) as system, open(ca_file) as ca:
            out.write(system.read() + "\n" + ca.read())
    elif "post" in figures:
        print("note: not root, so `unshare` cannot give URLSession the run's CA; its TLS posts will fail")

    results = {}
    records = []

    def keep(figure, transport, value, record):
        results.setdefault((figure, transport), []).append((value, record["load"]))
        record.update({"figure": figure, "transport": transport, "value": value})
        records.append(record)
        print("  %-22s %-12s %12s   load %.2f   %s" % (figure, transport, value, record["load"],
                                                       " / ".join(record["outcomes"])), flush=True)

    try:
        for round_index in range(arguments.rounds):
            print("round %d of %d" % (round_index + 1, arguments.rounds), flush=True)
            for transport in transports:
                if "wait" in figures:
                    url = peer.open({"steps": [{"end": "silence"}]})
                    record = probe(arguments, bundle, ca_file, transport, arguments.wait_seconds * 1000, [url])
                    keep("wait CPU (ms)", transport, round(record.get("cpu_us", -1000) / 1000, 1), record)
                if "memory" in figures:
                    for name, step in (
                        ("endless chunked", {"send": "HTTP/1.1 202 Accepted\r\nTransfer-Encoding: chunked\r\n\r\n",
                                             "endless": "chunked"}),
                        ("2000 MiB", {"send": "HTTP/1.1 202 Accepted\r\nContent-Length: 2097152000\r\n\r\n",
                                      "endless": "raw", "repeat": 32000}),
                    ):
                        url = peer.open({"steps": [{"send": OK}, step]})
                        record = probe(arguments, bundle, ca_file, transport, 60_000, [url, url])
                        keep("peak growth %s (KiB)" % name, transport, record.get("peak_growth_kb", -1), record)
                if "post" in figures:
                    url = peer.open({"tls": "good", "then": {"send": OK_JSON}})
                    record = probe(arguments, bundle, ca_file, transport, 30_000, [url, url],
                                   ["--repeat", str(arguments.posts), "--body-bytes", str(arguments.post_bytes)])
                    keep("CPU per TLS POST (us)", transport, record.get("per_request_us", -1), record)
    finally:
        peer.close()
        shutil.rmtree(scratch, ignore_errors=True)
        if arguments.json:
            with open(arguments.json, "a") as out:
                for record in records:
                    out.write(json.dumps(record) + "\n")

    print()
    print("%-28s %-12s %12s %24s %14s" % ("figure", "transport", "median", "min-max", "load"))
    for (figure, transport), values in results.items():
        numbers = [value for value, _ in values]
        loads = [load_ for _, load_ in values]
        print("%-28s %-12s %12s %24s %14s" % (
            figure, transport, statistics.median(numbers), "%s-%s" % (min(numbers), max(numbers)),
            "%.1f-%.1f" % (min(loads), max(loads))))


if __name__ == "__main__":
    main()
