#!/usr/bin/env python3
"""The peer client of the real-ingest benchmark: segment-analytics-python (2.4.0 in the driver's virtualenv).

Run by compare.py, with the same workload as SDK Core's `BENCH_MODE=real-ingest` (see RealIngestRun.swift):
`--rate N --seconds S` tracks N events a second for S seconds (ticks of 10 ms, catching up when a tick comes
late); `--rate 0 --events N` tracks N events in a tight loop. Then it calls no flush: it waits until the
ingest's progress file says it holds every event, or no new event arrived for `--patience` seconds, or
`--limit` seconds passed since the start. The client's settings are its defaults except `host` (the ingest)
and, when `--queue` is given, `max_queue_size` (raised for the burst: its default of 10 000 drops the rest of a
100 000-event burst). Its CPU is this process's (`resource.getrusage`, user + system, every thread) from
before the client was created until the wait ended; the shutdown afterwards is not counted. With `--idle` it
ticks at the same pace but tracks nothing (the client is still created): the start-up and the calling loop alone.

It prints one line: `result {json}`.
"""

import argparse
import json
import resource
import sys
import time


def cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def read_progress(path):
    try:
        with open(path) as file:
            fields = file.read().split()
        return int(fields[0]), float(fields[1])
    except (OSError, ValueError, IndexError):
        return 0, 0.0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", required=True, help="the ingest, e.g. https://127.0.0.1:8443")
    parser.add_argument("--progress", required=True)
    parser.add_argument("--rate", type=int, default=200, help="events per second; 0: a tight-loop burst")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--events", type=int, default=100_000, help="burst size (with --rate 0)")
    parser.add_argument("--patience", type=float, default=60.0, help="give up after this long without progress")
    parser.add_argument("--limit", type=float, default=300.0, help="give up this long after the start")
    parser.add_argument("--idle", action="store_true", help="tick at the rate but track nothing")
    parser.add_argument("--queue", type=int, default=None, help="max_queue_size (default: the client's own)")
    arguments = parser.parse_args()

    from segment.analytics.client import Client
    import segment.analytics.version

    errors = []
    cpu_before = cpu_seconds()
    start = time.time()
    options = {"host": arguments.host, "on_error": lambda error, items: errors.append(len(items))}
    if arguments.queue is not None:
        options["max_queue_size"] = arguments.queue
    client = Client("BENCH_KEY", **options)

    clock = time.monotonic
    began = clock()
    tracked = 0
    refused = 0

    def track(index):
        nonlocal refused
        success, _ = client.track(
            anonymous_id="bench-user", event="purchase", properties={"item": "shoes", "price": 49.99, "index": index}
        )
        if not success:
            refused += 1

    if arguments.rate <= 0:
        for index in range(arguments.events):
            track(index)
        tracked = arguments.events
    else:
        limit = int(arguments.rate * arguments.seconds)
        next_tick = began
        while tracked < limit:
            due = min(limit, int((clock() - began) * arguments.rate))
            while tracked < due:
                if not arguments.idle:
                    track(tracked)
                tracked += 1
            if tracked >= limit:
                break
            next_tick += 0.01
            pause = next_tick - clock()
            if pause > 0:
                time.sleep(pause)
    produced = clock()
    if arguments.idle:
        tracked = 0

    held, last = read_progress(arguments.progress)
    last_change = clock()
    while held < tracked and clock() - began < arguments.limit and clock() - last_change < arguments.patience:
        time.sleep(0.05)
        now_held, last = read_progress(arguments.progress)
        if now_held != held:
            held = now_held
            last_change = clock()
    waited = clock()
    cpu = cpu_seconds() - cpu_before
    client.shutdown()
    result = {
        "client": "segment-analytics-python " + segment.analytics.version.VERSION,
        "tracked": tracked,
        "refused_by_queue": refused,
        "cpu_seconds": cpu,
        "start": start,
        "produce_seconds": produced - began,
        "wait_seconds": waited - produced,
        "held_at_end": held,
        "last_receive": last,
        "reported_failures": sum(errors),
        "settings": "defaults" + ("" if arguments.queue is None else ", max_queue_size=%d" % arguments.queue),
    }
    print("result " + json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
