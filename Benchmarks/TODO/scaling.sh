#!/usr/bin/env bash
# How the cost of a `todo` command grows with the list, in a release build.
#
#   Benchmarks/TODO/scaling.sh [N]        (N = 10000 by default)
#
# 1. One `todo --file F` process reads a piped script of N `add` lines; the time at which each
#    thousandth result line appears on its standard output is recorded. Every line is one
#    SQLite transaction (lock, catch up, write the item and its undo step, commit), so a flat
#    per-1,000 time means a change costs the same on a long list as on a short one.
# 2. One-shot commands (`add`, `done`, `list`) on the resulting N-item list, 7 runs each, median.
#
# Targets (README, "The sample"): last 1,000 adds ≤ 2× the first 1,000; all N in under 30 s;
# a one-shot command on 10,000 items under 100 ms. Timings are wall-clock on whatever else the
# machine is doing; run it on a quiet machine and more than once.
set -euo pipefail
cd "$(dirname "$0")/../.."
count="${1:-10000}"

swift build -c release --product todo --scratch-path .build-bench >&2
todo="$PWD/.build-bench/release/todo"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

python3 - "$todo" "$work/todo.db" "$count" <<'PY'
import statistics, subprocess, sys, threading, time

todo, path, count = sys.argv[1], sys.argv[2], int(sys.argv[3])

# 1. The piped script.
start = time.perf_counter()
process = subprocess.Popen([todo, "--file", path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, env={})
def feed():
    for number in range(1, count + 1):
        process.stdin.write(f"add Item {number} of the scaling run\n".encode())
    process.stdin.close()
threading.Thread(target=feed, daemon=True).start()
marks = {0: start}
lines = 0
for line in process.stdout:
    lines += 1
    if lines % 1000 == 0:
        marks[lines] = time.perf_counter()
process.wait()
end = time.perf_counter()
assert process.returncode == 0 and lines == count, (process.returncode, lines)

print(f"piped script of {count} adds: {end - start:.2f} s in all")
blocks = sorted(marks)
for low, high in zip(blocks, blocks[1:]):
    elapsed = marks[high] - marks[low]
    print(f"  adds {low + 1:>6}–{high:<6} {elapsed * 1000:8.0f} ms  ({elapsed / (high - low) * 1e6:6.0f} µs per add)")
first = marks[1000] - marks[0]
last = marks[blocks[-1]] - marks[blocks[-2]]
print(f"  last 1,000 / first 1,000 = {last / first:.2f}")

# 2. One-shot commands on the resulting list.
def timed(arguments, runs=7):
    samples = []
    for _ in range(runs):
        before = time.perf_counter()
        result = subprocess.run([todo, "--file", path] + arguments, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, env={})
        samples.append(time.perf_counter() - before)
        assert result.returncode == 0, arguments
    return statistics.median(samples), max(samples)

print(f"one-shot commands on the {count}-item list (median and worst of 7):")
for arguments in (["add", "one more"], ["done", str(count // 2)], ["list"]):
    median, worst = timed(arguments)
    print(f"  todo {' '.join(arguments):<12} {median * 1000:6.1f} ms  (worst {worst * 1000:.1f} ms)")
PY
