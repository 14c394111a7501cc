#!/usr/bin/env bash
# What saving the undo history costs `todo`, for two builds side by side: the one checked out
# and an older commit (by default db19c32, the last that rewrote the history file whole after
# every change). Release builds; every measurement alternates the two builds, RUNS times.
#
#   Benchmarks/TODO/history.sh [OLD_COMMIT] [RUNS]
#
# Measures, per build (the issue "The TODO sample a person enjoys", item 5):
#   a. after nine piped lines of 1,000 adds each (`add 1; add 2; …` on one line), the time of
#      the next 100 single-add lines, and of the 100 after those (target: first ≤ 1.5× second);
#   b. 10,000 piped single-add lines (target: under 10 s);
#   c. 2,000 piped adds, and the same with TODO_HISTORY_LIMIT=0 (target: ≤ 1.3×);
#   d. a one-shot `todo add` on a 10,000-item list, median of 7 (target: under 50 ms).
# Timings are wall-clock on whatever else the machine is doing; compare builds within a run.
set -euo pipefail
cd "$(dirname "$0")/../.."
old_commit="${1:-db19c32}"
runs="${2:-2}"

work="$(mktemp -d)"
trap 'git worktree remove --force "$work/old" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
swift build -c release --product todo >&2
cp .build/release/todo "$work/todo-new"
git worktree add --detach "$work/old" "$old_commit" >/dev/null 2>&1
(cd "$work/old" && swift build -c release --product todo >&2)
cp "$work/old/.build/release/todo" "$work/todo-old"

python3 - "$work" "$runs" <<'PY'
import os, statistics, subprocess, sys, threading, time

work, runs = sys.argv[1], int(sys.argv[2])
builds = {"old": f"{work}/todo-old", "new": f"{work}/todo-new"}

def piped(todo, path, lines, env=None):
    """Feeds `lines` to one todo session; returns the times at which each result line of the
    single-add lines appeared."""
    process = subprocess.Popen([todo, "--file", path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, env=env or {})
    # Fed from a thread: written all at once, the input would fill the pipe while todo waits
    # for its output to be read.
    def feed():
        process.stdin.write(("\n".join(lines) + "\n").encode())
        process.stdin.close()
    threading.Thread(target=feed, daemon=True).start()
    stamps = [time.perf_counter()]
    for _ in process.stdout:
        stamps.append(time.perf_counter())
    process.wait()
    assert process.returncode == 0, process.returncode
    return stamps

def fresh(name):
    path = f"{work}/{name}/todo.json"
    subprocess.run(["rm", "-rf", os.path.dirname(path)])
    os.makedirs(os.path.dirname(path))
    return path

results = {name: {"a_first": [], "a_next": [], "b": [], "c_history": [], "c_none": [], "d": []} for name in builds}
for run in range(runs):
    for name, todo in builds.items():
        # a. Nine lines of 1,000 adds, then 200 single adds in the same session: the output
        #    has 9 × 1,000 lines, then one line per single add.
        path = fresh(f"a-{name}")
        big = ["; ".join(f"add big {line}-{i}" for i in range(1000)) for line in range(9)]
        stamps = piped(todo, path, big + [f"add single {i}" for i in range(200)])
        base = 9000
        results[name]["a_first"].append(stamps[base + 100] - stamps[base])
        results[name]["a_next"].append(stamps[base + 200] - stamps[base + 100])
        # b. 10,000 single adds.
        path = fresh(f"b-{name}")
        start = time.perf_counter()
        piped(todo, path, [f"add Item {i}" for i in range(10000)])
        results[name]["b"].append(time.perf_counter() - start)
        # c. 2,000 adds with and without history.
        for key, env in (("c_history", {}), ("c_none", {"TODO_HISTORY_LIMIT": "0"})):
            path = fresh(f"c-{name}")
            start = time.perf_counter()
            piped(todo, path, [f"add Item {i}" for i in range(2000)], env)
            results[name][key].append(time.perf_counter() - start)
        # d. One-shot adds on the 10,000-item list of b.
        path = f"{work}/b-{name}/todo.json"
        samples = []
        for _ in range(7):
            start = time.perf_counter()
            subprocess.run([todo, "--file", path, "add", "one more"], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, env={}, check=True)
            samples.append(time.perf_counter() - start)
        results[name]["d"].append(statistics.median(samples))

print(f"{runs} runs, builds alternating; median over runs")
for name in builds:
    r = {key: statistics.median(values) for key, values in results[name].items()}
    print(f"{name}:")
    print(f"  a. 100 single adds after nine 1,000-add lines {r['a_first']:.3f} s, the next 100 {r['a_next']:.3f} s"
          f" ({r['a_first'] / r['a_next']:.2f}×; target ≤ 1.5×)")
    print(f"  b. 10,000 piped adds {r['b']:.2f} s (target < 10 s)")
    print(f"  c. 2,000 piped adds {r['c_history']:.2f} s, with TODO_HISTORY_LIMIT=0 {r['c_none']:.2f} s"
          f" ({r['c_history'] / r['c_none']:.2f}×; target ≤ 1.3×)")
    print(f"  d. one-shot add on a 10,000-item list {r['d'] * 1000:.1f} ms (median of 7; target < 50 ms)")
PY
