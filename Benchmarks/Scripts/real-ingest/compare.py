#!/usr/bin/env python3
"""Delivery against a separate-process ingest (TLS or plain HTTP): SDK Core builds side by side with
segment-analytics-python, interleaved, with the load average beside each figure.

WHAT IT RUNS
  For each round, for each scenario, for each client (in the order given; Python last):
    1. a fresh ingest (ingest.py: Python ThreadingHTTPServer, HTTP/1.1 keep-alive, wrapped in ssl for TLS,
       answering each batch after --delay-ms) on 127.0.0.1;
    2. the client, tracking at the scenario's rate for --seconds (or a tight-loop burst of --burst-events),
       then waiting, without a flush, until the ingest holds every event (or --patience seconds without a new
       event, or --limit seconds in all); it reports its own process CPU (getrusage, user + system);
    3. SIGTERM to the ingest, which writes its report: requests, reused requests, TCP connections, TLS
       handshakes, requests whose body never arrived, events received / unique (by messageId), latency
       track -> ingest (the event's `timestamp` vs the ingest's receive clock) p50 / p99.
  Then a table per scenario: medians over the rounds, each with the 1-minute load average (min-max over the
  rounds, read when each run started) beside it. Raw records go to --json (one JSON object a line).

  Scenarios: tls-200, tls-2000, http-200, http-2000, tls-burst, http-burst; "-d<ms>" overrides the answer delay
  (tls-2000-d100), "+python-writes" makes the ingest answer as http.server does by default (headers and body
  in two writes with Nagle on: a delayed-ACK stall per answer on a reused connection), "+busy" (last) runs a
  second process burning one core during that scenario (http-burst+python-writes+busy), "+idle" (last) makes
  each client tick at the scenario's rate for as long but track nothing (tls-200+idle): its CPU is the client's
  start-up, calling loop and idle instance; run beside the scenario itself, the table subtracts it.
  SDK Core's line also gives the CPU of its libcurl engine thread (`sdkcore-curl`) per request.

TRUST (TLS)
  The run makes a throwaway CA and a server certificate for 127.0.0.1 (openssl CLI) in the scratch directory,
  and a bundle = the system bundle (/etc/ssl/certs/ca-certificates.crt) + that CA. FoundationNetworking on
  Linux gives libcurl the system bundle path and reads no environment variable for it
  (`URLSessionCertificateAuthorityInfoFile` is read only on Android), so an SDK Core client runs in a private
  mount namespace (`unshare --mount`, root needed) where the bundle is bind-mounted over the system bundle's
  path: the machine's trust store is never changed, and the client still loads a ~140-certificate bundle per
  new connection, as users pay. segment-analytics-python gets the same bundle through REQUESTS_CA_BUNDLE.

REPRODUCE (from the repository root; Linux, root for unshare, python3 >= 3.11, openssl, network for pip)
  # the old build: a worktree of the commit to compare, with the Benchmarks/ of a commit that has this script
  # (here the branch `bench`; the benchmark package builds against the worktree's own Sources/)
  git worktree add --detach ../sdk-core-old 8e787bf
  git -C ../sdk-core-old checkout bench -- Benchmarks
  swift build -c release --package-path ../sdk-core-old/Benchmarks --product BinobanBenchmarks
  # the new build: this tree
  swift build -c release --package-path Benchmarks --product BinobanBenchmarks
  # 3 interleaved rounds of the issue's rows (about 30 minutes), raw records and the table kept;
  # http-burst+python-writes is the scenario in which the old build's requests lose their bodies
  python3 Benchmarks/Scripts/real-ingest/compare.py \
      --sdk old=../sdk-core-old/Benchmarks/.build/release/BinobanBenchmarks \
      --sdk new=Benchmarks/.build/release/BinobanBenchmarks \
      --python --rounds 3 \
      --scenarios tls-200,tls-2000,http-2000,http-burst,http-burst+python-writes,http-burst+busy \
      --json results.jsonl | tee compare.txt
  # the transports of one build side by side: @urlsession sets BENCH_TRANSPORT=urlsession, without it the run
  # uses the platform's default (the libcurl transport on Linux; RealIngest/BenchTransport.swift)
  python3 Benchmarks/Scripts/real-ingest/compare.py \
      --sdk urlsession=Benchmarks/.build/release/BinobanBenchmarks@urlsession \
      --sdk curl=Benchmarks/.build/release/BinobanBenchmarks --python --rounds 3 --scenarios tls-2000
  # a quick check (10 s rows, 20 000-event burst, one round)
  python3 Benchmarks/Scripts/real-ingest/compare.py --sdk new=Benchmarks/.build/release/BinobanBenchmarks \
      --python --rounds 1 --seconds 10 --burst-events 20000 --scenarios tls-200,http-burst

  The virtualenv with segment-analytics-python (--python-version, default 2.4.0) is created once under the
  scratch directory (--scratch, default /tmp/real-ingest-bench) and reused. Every process it starts is ended
  when it exits, also on Ctrl-C.
"""

import argparse
import atexit
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SYSTEM_BUNDLE = "/etc/ssl/certs/ca-certificates.crt"
CHILDREN = []


def log(line=""):
    print(line, flush=True)


def load_average():
    try:
        with open("/proc/loadavg") as file:
            return [float(field) for field in file.read().split()[:3]]
    except OSError:
        return [float("nan")] * 3


def start(command, **options):
    """Starts a child in a session of its own, remembered so that it is ended on exit."""
    process = subprocess.Popen(command, start_new_session=True, **options)
    CHILDREN.append(process)
    return process


def end(process, grace=5.0):
    """Ends one child and its process group: SIGTERM, then SIGKILL after `grace` seconds."""
    if process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            process.wait(grace)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            process.wait()
    if process in CHILDREN:
        CHILDREN.remove(process)


def end_all():
    for process in list(CHILDREN):
        end(process, grace=2.0)


def on_signal(number, _frame):
    end_all()
    sys.exit(128 + number)


def run_checked(command, **options):
    result = subprocess.run(command, capture_output=True, text=True, **options)
    if result.returncode != 0:
        raise SystemExit("failed: %s\n%s%s" % (" ".join(command), result.stdout, result.stderr))
    return result


def make_certificates(directory):
    """A throwaway CA, a server certificate for 127.0.0.1 signed by it, and the system bundle + the CA."""
    if shutil.which("openssl") is None:
        raise SystemExit("openssl is needed to make the run's CA")
    os.makedirs(directory, exist_ok=True)
    path = lambda name: os.path.join(directory, name)
    run_checked([
        "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj",
        "/CN=SDK Core real-ingest benchmark CA (throwaway)", "-keyout", path("ca.key"), "-out", path("ca.pem"),
        "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
    ])
    run_checked([
        "openssl", "req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1", "-keyout", path("server.key"),
        "-out", path("server.csr"),
    ])
    with open(path("server.ext"), "w") as file:
        file.write(
            "basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\n"
            "extendedKeyUsage=serverAuth\nsubjectAltName=IP:127.0.0.1,DNS:localhost\n"
        )
    run_checked([
        "openssl", "x509", "-req", "-in", path("server.csr"), "-CA", path("ca.pem"), "-CAkey", path("ca.key"),
        "-CAcreateserial", "-days", "2", "-extfile", path("server.ext"), "-out", path("server.pem"),
    ])
    with open(path("bundle.pem"), "w") as bundle:
        with open(SYSTEM_BUNDLE) as system:
            bundle.write(system.read())
        with open(path("ca.pem")) as ca:
            bundle.write("\n" + ca.read())
    return path("server.pem"), path("server.key"), path("bundle.pem")


def make_virtualenv(directory, version):
    """A virtualenv with segment-analytics-python==version, made once and reused."""
    python = os.path.join(directory, "bin", "python")
    marker = os.path.join(directory, "installed-" + version)
    if os.path.exists(marker):
        return python
    run_checked([sys.executable, "-m", "venv", directory])
    run_checked([python, "-m", "pip", "install", "--quiet", "segment-analytics-python==" + version])
    open(marker, "w").close()
    return python


def can_unshare():
    return shutil.which("unshare") is not None and subprocess.run(
        ["unshare", "--mount", "--propagation", "private", "true"], capture_output=True
    ).returncode == 0


class Scenario:
    def __init__(self, token, arguments):
        self.name = token
        text = token
        self.idle = text.endswith("+idle")
        if self.idle:
            text = text[: -len("+idle")]
        self.base = text
        self.busy = text.endswith("+busy")
        if self.busy:
            text = text[: -len("+busy")]
        self.python_writes = text.endswith("+python-writes")
        if self.python_writes:
            text = text[: -len("+python-writes")]
        self.delay_ms = arguments.delay_ms
        if "-d" in text:
            text, delay = text.rsplit("-d", 1)
            self.delay_ms = float(delay)
        scheme, _, workload = text.partition("-")
        if scheme not in ("tls", "http") or not workload:
            raise SystemExit("unknown scenario %r (tls-200, http-burst, tls-2000-d100, http-burst+busy, ...)" % token)
        self.tls = scheme == "tls"
        self.burst = workload == "burst"
        self.rate = 0 if self.burst else int(workload)
        self.seconds = arguments.seconds
        self.events = arguments.burst_events if self.burst else self.rate * int(arguments.seconds)
        if self.idle and self.burst:
            raise SystemExit("+idle needs a steady-rate scenario (tls-200+idle), not a burst")

    def describe(self):
        what = "%d-event burst" % self.events if self.burst else "%d events/s for %d s" % (self.rate, self.seconds)
        return "%s, %s, answers after %g ms%s" % (
            "TLS" if self.tls else "plain HTTP", what, self.delay_ms, ", a second process burning one core" if
            self.busy else "") + (", the ingest answering in http.server's default two writes (Nagle on)" if
            self.python_writes else "") + (", ticking without tracking (start-up and calling loop)" if self.idle else "")


def run_one(scenario, client, arguments, files, scratch):
    """One client against one fresh ingest; returns the record."""
    run_directory = os.path.join(scratch, "run")
    shutil.rmtree(run_directory, ignore_errors=True)
    os.makedirs(run_directory)
    port_file = os.path.join(run_directory, "port")
    report_file = os.path.join(run_directory, "report.json")
    progress_file = os.path.join(run_directory, "progress")
    ingest_command = [
        sys.executable, os.path.join(HERE, "ingest.py"), "--port-file", port_file, "--report", report_file,
        "--progress", progress_file, "--delay-ms", str(scenario.delay_ms), "--max-seconds",
        str(arguments.limit + 120),
    ]
    if scenario.tls:
        ingest_command += ["--cert", files["cert"], "--key", files["key"]]
    if scenario.python_writes:
        ingest_command.append("--python-writes")
    ingest = start(ingest_command, stdout=subprocess.DEVNULL)
    waited = time.monotonic()
    while not os.path.exists(port_file):
        if ingest.poll() is not None or time.monotonic() - waited > 15:
            end(ingest)
            raise SystemExit("the ingest did not start")
        time.sleep(0.05)
    with open(port_file) as file:
        port = int(file.read())
    limit = arguments.limit
    if client["kind"] == "sdk":
        environment = dict(os.environ)
        environment.update({
            "BENCH_MODE": "real-ingest",
            "REAL_INGEST_HOST": ("127.0.0.1:%d" if scenario.tls else "http://127.0.0.1:%d") % port,
            "REAL_INGEST_PROGRESS": progress_file,
            "REAL_INGEST_RATE": str(scenario.rate),
            "REAL_INGEST_SECONDS": str(int(scenario.seconds)),
            "REAL_INGEST_EVENTS": str(scenario.events),
            "REAL_INGEST_PATIENCE": str(int(arguments.patience)),
            "REAL_INGEST_LIMIT": str(int(limit)),
        })
        if client.get("transport"):
            environment["BENCH_TRANSPORT"] = client["transport"]
        if scenario.idle:
            environment["REAL_INGEST_IDLE"] = "1"
        command = [client["binary"]]
        if scenario.tls:
            # The bundle over the system bundle's path, in this process's private mount namespace only.
            command = [
                "unshare", "--mount", "--propagation", "private", "sh", "-c",
                'mount --bind "$0" %s && exec "$@"' % SYSTEM_BUNDLE, files["bundle"], client["binary"],
            ]
    else:
        environment = dict(os.environ)
        if scenario.tls:
            environment["REQUESTS_CA_BUNDLE"] = files["bundle"]
        command = [
            files["python"], os.path.join(HERE, "python-client.py"), "--host",
            ("https://127.0.0.1:%d" if scenario.tls else "http://127.0.0.1:%d") % port, "--progress", progress_file,
            "--rate", str(scenario.rate), "--seconds", str(scenario.seconds), "--events", str(scenario.events),
            "--patience", str(arguments.patience), "--limit", str(limit),
        ]
        if scenario.burst:
            command += ["--queue", str(arguments.python_queue)]
        if scenario.idle:
            command.append("--idle")
    load_before = load_average()
    output_path = os.path.join(run_directory, "client.out")
    with open(output_path, "w") as output:
        process = start(command, env=environment, stdout=output, stderr=subprocess.STDOUT)
        try:
            process.wait(limit + 60)
        except subprocess.TimeoutExpired:
            pass
        end(process)
    load_after = load_average()
    ingest.send_signal(signal.SIGTERM)
    try:
        ingest.wait(15)
    except subprocess.TimeoutExpired:
        pass
    end(ingest)
    with open(output_path) as file:
        output_text = file.read()
    result = None
    for line in output_text.splitlines():
        if line.startswith("result "):
            result = json.loads(line[len("result "):])
    report = None
    if os.path.exists(report_file):
        with open(report_file) as file:
            report = json.load(file)
    record = {
        "scenario": scenario.name, "description": scenario.describe(), "client": client["label"],
        "load_before": load_before, "load_after": load_after, "client_result": result, "ingest": report,
    }
    if result is None or report is None:
        record["error"] = "no result from the client or no report from the ingest"
        record["client_output_tail"] = output_text[-2000:]
        return record
    record["figures"] = figures_for(result, report, scenario.tls)
    return record


def figures_for(result, report, tls):
    """The table's figures of one run, from the client's result line and the ingest's report."""
    delivered = report["unique_bench_events"]
    per_thousand = lambda value: value * 1000.0 / delivered if delivered else float("nan")
    return {
        "tracked": result["tracked"],
        "delivered": delivered,
        "lost": result["tracked"] - delivered,
        "duplicates": report["duplicates"],
        "cpu_ms_per_1000": per_thousand(result["cpu_seconds"] * 1000.0),
        "cpu_seconds": result["cpu_seconds"],
        "p50_ms": None if report["latency_p50"] is None else report["latency_p50"] * 1000.0,
        "p99_ms": None if report["latency_p99"] is None else report["latency_p99"] * 1000.0,
        "requests_per_1000": per_thousand(report["requests"]),
        "connections_per_1000": per_thousand(report["connections"]),
        "handshakes_per_1000": per_thousand(report["tls_handshakes"]) if tls else None,
        "reused_percent": 100.0 * report["reused_requests"] / report["requests"] if report["requests"] else None,
        "incomplete_bodies": report["incomplete_bodies"],
        "client_dropped": result.get("refused_by_queue", result.get("reported_drops", 0)),
        "delivered_after_s": (report["last_receive"] - result["start"]) if report["last_receive"] else None,
        "requests": report["requests"],
        "connections": report["connections"],
        "handshakes": report["tls_handshakes"],
        "cpu_ms": result["cpu_seconds"] * 1000.0,
        "engine_ms": None if result.get("engine_thread_cpu_seconds") is None else
        result["engine_thread_cpu_seconds"] * 1000.0,
        "engine_us_per_request": None if result.get("engine_thread_cpu_seconds") is None or not report["requests"]
        else result["engine_thread_cpu_seconds"] * 1e6 / report["requests"],
        "before_run_ms": None if result.get("cpu_before_run_seconds") is None else
        result["cpu_before_run_seconds"] * 1000.0,
    }


def describe_record(record):
    figures = record.get("figures")
    load = "load %.2f %.2f %.2f" % tuple(record["load_before"])
    if figures is None:
        return "%s %s: ERROR %s | %s\n%s" % (
            record["scenario"], record["client"], record["error"], load, record.get("client_output_tail", ""))
    text = (
        "%s %s: delivered %d of %d (lost %d, duplicates %d) in %.1f s; CPU %.2f s = %.0f ms per 1 000; "
        "latency p50 %s / p99 %s; %d requests (%.1f per 1 000, %s reused), %d TCP connections (%.2f per 1 000)"
        % (
            record["scenario"], record["client"], figures["delivered"], figures["tracked"], figures["lost"],
            figures["duplicates"], figures["delivered_after_s"] or 0.0, figures["cpu_seconds"],
            figures["cpu_ms_per_1000"], milliseconds(figures["p50_ms"]), milliseconds(figures["p99_ms"]),
            figures["requests"], figures["requests_per_1000"], percent(figures["reused_percent"]),
            figures["connections"], figures["connections_per_1000"],
        )
    )
    if figures["handshakes_per_1000"] is not None:
        text += ", %d TLS handshakes (%.2f per 1 000, %d resumed)" % (
            figures["handshakes"], figures["handshakes_per_1000"], record["ingest"]["tls_resumed"])
    text += "; %d bodies never arrived" % figures["incomplete_bodies"]
    if figures.get("client_dropped"):
        text += "; the client dropped %d (its own count)" % figures["client_dropped"]
    if figures.get("engine_ms") is not None:
        text += "; engine thread %.1f ms" % figures["engine_ms"]
        if figures.get("engine_us_per_request") is not None:
            text += " (%.0f us per request)" % figures["engine_us_per_request"]
    if figures.get("before_run_ms") is not None:
        text += "; %.0f ms before the run (process start)" % figures["before_run_ms"]
    extra = record["client_result"].get("statistics")
    if extra:
        text += "; client: " + extra
    if record["client_result"].get("reported_failures"):
        text += "; client reported %d failed events" % record["client_result"]["reported_failures"]
    return text + " | %s (after: %.2f)" % (load, record["load_after"][0])


def milliseconds(value):
    if value is None:
        return "-"
    if value >= 1000:
        return "%.1f s" % (value / 1000.0)
    return "%.1f ms" % value if value < 100 else "%.0f ms" % value


def percent(value):
    return "-" if value is None else "%.1f %%" % value


def table(records, scenarios, clients):
    rows = [
        ("client CPU per 1 000 delivered", "cpu_ms_per_1000", lambda v: "%.0f ms" % v),
        ("client CPU in all", "cpu_ms", lambda v: "%.0f ms" % v),
        ("of it, the libcurl engine thread", "engine_ms", lambda v: "%.1f ms" % v),
        ("libcurl engine thread per request", "engine_us_per_request", lambda v: "%.0f us" % v),
        ("latency track -> ingest p50", "p50_ms", milliseconds),
        ("latency track -> ingest p99", "p99_ms", milliseconds),
        ("requests per 1 000 events", "requests_per_1000", lambda v: "%.1f" % v),
        ("requests on a reused connection", "reused_percent", percent),
        ("TCP connections per 1 000 events", "connections_per_1000", lambda v: "%.2f" % v),
        ("TLS handshakes per 1 000 events", "handshakes_per_1000", lambda v: "%.2f" % v),
        ("requests whose body never arrived", "incomplete_bodies", lambda v: "%d" % v),
        ("lost (tracked - unique at the ingest)", "lost", lambda v: "%d" % v),
        ("of those, dropped by the client (its own count)", "client_dropped", lambda v: "%d" % v),
        ("last event at the ingest after", "delivered_after_s", lambda v: "%.1f s" % v),
    ]
    lines = []
    for scenario in scenarios:
        lines.append("")
        lines.append("### %s: %s" % (scenario.name, scenario.describe()))
        lines.append("")
        lines.append("| figure (median of rounds; 1-min load min-max) | " + " | ".join(c["label"] for c in clients) + " |")
        lines.append("|---" * (len(clients) + 1) + "|")
        for title, key, render in rows:
            if key == "handshakes_per_1000" and not scenario.tls:
                continue
            cells = []
            for client in clients:
                chosen = [
                    r for r in records
                    if r["scenario"] == scenario.name and r["client"] == client["label"] and "figures" in r
                ]
                values = [r["figures"][key] for r in chosen if r["figures"][key] is not None]
                if not values:
                    cells.append("-")
                    continue
                loads = [r["load_before"][0] for r in chosen]
                median = statistics.median(values)
                cell = render(median)
                if len(values) > 1:
                    cell += " [%s-%s]" % (render(min(values)), render(max(values)))
                cells.append("%s (load %.1f-%.1f)" % (cell, min(loads), max(loads)))
            lines.append("| %s | %s |" % (title, " | ".join(cells)))
        idle_name = scenario.name + "+idle"
        if not scenario.idle and any(r["scenario"] == idle_name for r in records):
            cells = []
            for client in clients:
                def median_of(name, key):
                    values = [
                        r["figures"][key] for r in records
                        if r["scenario"] == name and r["client"] == client["label"] and "figures" in r
                    ]
                    return statistics.median(values) if values else None
                busy, idle, delivered = (median_of(scenario.name, "cpu_ms"), median_of(idle_name, "cpu_ms"),
                                         median_of(scenario.name, "delivered"))
                if busy is None or idle is None or not delivered:
                    cells.append("-")
                else:
                    cells.append("%.0f ms (idle run %.0f ms)" % ((busy - idle) * 1000.0 / delivered, idle))
            lines.append("| CPU per 1 000 beyond the %s run (start-up, calling loop) | %s |" % (
                idle_name, " | ".join(cells)))
        failed = [r for r in records if r["scenario"] == scenario.name and "figures" not in r]
        if failed:
            lines.append("")
            lines.append("%d run(s) without a result: %s" % (len(failed), ", ".join(r["client"] for r in failed)))
    return "\n".join(lines)


def print_saved(path, arguments):
    """The lines and the table of the runs a --json file holds, in the order they ran."""
    with open(path) as file:
        records = [json.loads(line) for line in file if line.strip()]
    names, labels = [], []
    for record in records:
        if record["scenario"] not in names:
            names.append(record["scenario"])
        if record["client"] not in labels:
            labels.append(record["client"])
        if record.get("client_result") and record.get("ingest"):
            record["figures"] = figures_for(record["client_result"], record["ingest"], record["ingest"]["tls"])
        log("round %d %s" % (record["round"], describe_record(record)))
    log(table(records, [Scenario(name, arguments) for name in names], [{"label": label} for label in labels]))
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sdk", action="append", default=[], metavar="LABEL=BINARY[@TRANSPORT]",
                        help="a release build of the benchmark package's BinobanBenchmarks (repeatable); @TRANSPORT "
                             "sets its BENCH_TRANSPORT (@urlsession; without it, the platform's default transport)")
    parser.add_argument("--python", action="store_true", help="also run segment-analytics-python")
    parser.add_argument("--python-version", default="2.4.0")
    parser.add_argument("--python-queue", type=int, default=200_000, help="its max_queue_size in bursts")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--scenarios", default="tls-200,tls-2000,http-burst")
    parser.add_argument("--seconds", type=float, default=30.0, help="duration of the steady-rate scenarios")
    parser.add_argument("--burst-events", type=int, default=100_000)
    parser.add_argument("--delay-ms", type=float, default=20.0, help="the ingest's answer delay")
    parser.add_argument("--patience", type=float, default=60.0, help="seconds without a new event before giving up")
    parser.add_argument("--limit", type=float, default=300.0, help="the most seconds one client run may take")
    parser.add_argument("--scratch", default="/tmp/real-ingest-bench")
    parser.add_argument("--json", help="append one JSON record per run to this file")
    parser.add_argument("--table-from", metavar="JSONL", help="print the runs and the table of a --json file, run nothing")
    arguments = parser.parse_args()
    if arguments.table_from:
        return print_saved(arguments.table_from, arguments)

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGHUP, on_signal)
    atexit.register(end_all)

    clients = []
    for item in arguments.sdk:
        label, _, binary = item.partition("=")
        binary, _, transport = binary.partition("@")
        if not binary or not os.access(binary, os.X_OK):
            raise SystemExit("--sdk wants LABEL=BINARY[@TRANSPORT] with an executable binary: %r" % item)
        clients.append({"kind": "sdk", "label": label, "binary": os.path.abspath(binary),
                        "transport": transport or None})
    scenarios = [Scenario(token.strip(), arguments) for token in arguments.scenarios.split(",") if token.strip()]
    os.makedirs(arguments.scratch, exist_ok=True)
    files = {}
    if any(s.tls for s in scenarios):
        files["cert"], files["key"], files["bundle"] = make_certificates(os.path.join(arguments.scratch, "tls"))
        if clients and not can_unshare():
            raise SystemExit("TLS scenarios need `unshare --mount` (root) to give the SDK client the run's CA")
    if arguments.python:
        files["python"] = make_virtualenv(os.path.join(arguments.scratch, "venv"), arguments.python_version)
        clients.append({"kind": "python", "label": "Python " + arguments.python_version})
    if not clients:
        raise SystemExit("nothing to run: give --sdk LABEL=BINARY and/or --python")

    log("real-ingest comparison: %d round(s); clients: %s; %d cores; load at start %.2f %.2f %.2f" % (
        arguments.rounds, ", ".join(c["label"] for c in clients), os.cpu_count() or 0, *load_average()))
    for scenario in scenarios:
        log("  %s: %s" % (scenario.name, scenario.describe()))
    records = []
    json_file = open(arguments.json, "a") if arguments.json else None
    for round_number in range(1, arguments.rounds + 1):
        for scenario in scenarios:
            burner = None
            if scenario.busy:
                burner = start([sys.executable, "-c", "while True: pass"])
            try:
                for client in clients:
                    record = run_one(scenario, client, arguments, files, arguments.scratch)
                    record["round"] = round_number
                    records.append(record)
                    log("round %d %s" % (round_number, describe_record(record)))
                    if json_file:
                        json_file.write(json.dumps(record) + "\n")
                        json_file.flush()
            finally:
                if burner is not None:
                    end(burner)
    log(table(records, scenarios, clients))
    return 0


if __name__ == "__main__":
    sys.exit(main())
