#!/usr/bin/env python3
"""Where one thread's CPU goes, from a `perf record -g` of a benchmark: by system call, and by function.

Usage:
    BENCH_MODE=one-at-a-time BENCH_RATE=2000 BENCH_SECONDS=10 \
        perf record -e cpu-clock -F 9999 -g -o loop.data Benchmarks/.build/release/BinobanBenchmarks
    python3 Benchmarks/Scripts/thread-profile.py loop.data [THREAD] [TOP]

THREAD is the thread's name as the kernel keeps it (15 characters; default `binoban-loop`, the pipeline loop's
thread), TOP the number of functions listed (default 60). The samples are the thread's running time only (the
`cpu-clock` event does not count a sleeping thread), so the shares are of what the thread costs, not of the run.

It prints two tables:
- the share of the samples in each system call (named by the C library's function that made it), in the kernel
  outside a system call (page faults, interrupts), and in user space;
- each function's inclusive share (samples with it anywhere on the stack, counted once per sample) and self share
  (samples where it is the leaf), names demangled by `swift demangle` when it is on the PATH.

An async function is split by the compiler into partial functions, and a stack shows only the partial that runs:
the inclusive share of an `async` caller can read lower than that of what it awaits.
"""

import collections
import re
import shutil
import subprocess
import sys

FRAME = re.compile(r"^\s+[0-9a-f]+\s+(.*?)\s+\((.*)\)$")


def samples(data, thread):
    """Each sample of `thread` as its frames, leaf first."""
    script = subprocess.run(
        ["perf", "script", "-i", data, "--comm", thread, "-F", "comm,tid,ip,sym,dso"],
        capture_output=True, text=True, check=True,
    ).stdout
    stack = None
    for line in script.splitlines():
        if not line.strip():
            if stack:
                yield stack
            stack = None
        elif not line[0].isspace():
            stack = []
        elif stack is not None:
            frame = FRAME.match(line)
            if frame:
                stack.append((frame.group(1), frame.group(2)))
    if stack:
        yield stack


def demangled(names):
    if not shutil.which("swift") or not names:
        return names
    out = subprocess.run(
        ["swift", "demangle", "--simplified", "--compact"], input="\n".join(names), capture_output=True, text=True
    ).stdout.splitlines()
    return out if len(out) == len(names) else names


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    data = sys.argv[1]
    thread = sys.argv[2] if len(sys.argv) > 2 else "binoban-loop"
    top = int(sys.argv[3]) if len(sys.argv) > 3 else 60
    stacks = list(samples(data, thread))
    if not stacks:
        sys.exit(f"no samples of a thread named {thread!r} in {data}")
    total = len(stacks)
    calls = collections.Counter()
    inclusive = collections.Counter()
    own = collections.Counter()
    for stack in stacks:
        names = [name for name, _ in stack]
        if "entry_SYSCALL_64_after_hwframe" in names:
            # Named by the C library's wrapper: the first frame below the kernel's.
            caller = next((name for name, place in stack if place != "[kernel.kallsyms]"), "?")
            calls[f"system call from {caller}"] += 1
        elif stack[0][1] == "[kernel.kallsyms]":
            # Page faults, interrupts and preemption run in the kernel outside any system call.
            calls["kernel, outside a system call"] += 1
        else:
            calls["user space"] += 1
        own[names[0]] += 1
        for name in set(names):
            inclusive[name] += 1
    print(f"{total} samples of {thread}")
    print("\nby system call")
    for name, count in calls.most_common():
        print(f"{100 * count / total:6.1f} %  {name}")
    names = [name for name, _ in inclusive.most_common(top)]
    print("\nby function: inclusive, self")
    for name, shown in zip(names, demangled(names)):
        print(f"{100 * inclusive[name] / total:6.1f} % {100 * own[name] / total:6.1f} %  {shown[:150]}")


if __name__ == "__main__":
    main()
