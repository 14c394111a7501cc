#!/usr/bin/env bash
# What the undo history costs `todo`, for two builds side by side: the one checked out and an
# older commit (by default 3a7fb9f, the last to keep the list in JSON files). Release builds
# (scratch path .build-bench); every measurement alternates the two builds, RUNS times.
#
#   Benchmarks/TODO/history.sh [OLD_COMMIT] [RUNS]
#   OLD_TODO=/path/to/todo Benchmarks/TODO/history.sh     # an old build made already
#
# Measures, per build (issue 28, item 2, "Read what you need"):
#   a. one-shot `todo list` on a 9,050-item list made of nine piped lines of 1,000 adds each and
#      50 single adds, median of 7 runs (target < 30 ms), against the same list made with
#      TODO_HISTORY_LIMIT=0, so with no history to read (target ≤ 1.3×);
#   b. 10,000 piped single adds (target < 5 s);
#   c. after the nine lines, the time of the next 100 single-add lines against the 100 after
#      those (target ≤ 1.2×): whether big old steps slow down new ones;
#   d. 2,000 piped adds, against the same with TODO_HISTORY_LIMIT=0 (target ≤ 1.2×);
#   e. one-shot `todo add` on a's lists, with history against TODO_HISTORY_LIMIT=0 on the list
#      without, median of 7 (the same target, for the command a person types).
# Timings are wall-clock on whatever else the machine is doing: compare within a run.
set -euo pipefail
cd "$(dirname "$0")/../.."
old_commit="${1:-3a7fb9f}"
runs="${2:-3}"

work="$(mktemp -d)"
trap 'git worktree remove --force "$work/old" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
swift build -c release --product todo --scratch-path .build-bench >&2
cp .build-bench/release/todo "$work/todo-new"
if [ -n "${OLD_TODO:-}" ]; then
    cp "$OLD_TODO" "$work/todo-old"
else
    git worktree add --detach "$work/old" "$old_commit" >/dev/null 2>&1
    (cd "$work/old" && swift build -c release --product todo --scratch-path .build-bench >&2)
    cp "$work/old/.build-bench/release/todo" "$work/todo-old"
fi

python3 - "$work" "$runs" <<'PY'
import os, shutil, statistics, subprocess, sys, threading, time

work, runs = sys.argv[1], int(sys.argv[2])
builds = {"old": f"{work}/todo-old", "new": f"{work}/todo-new"}
NO_HISTORY = {"TODO_HISTORY_LIMIT": "0"}

def piped(todo, path, lines, env=None):
    """Feeds `lines` to one todo session; returns the times at which each output line appeared."""
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
    # Neither todo.json (the old name) nor todo.db: each build uses the path as its own file.
    directory = f"{work}/{name}"
    shutil.rmtree(directory, ignore_errors=True)
    os.makedirs(directory)
    return f"{directory}/todo.data"

def one_shot(todo, path, arguments, env=None):
    start = time.perf_counter()
    subprocess.run([todo, "--file", path] + arguments, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   env=env or {}, check=True)
    return time.perf_counter() - start

def alternating(first, second, count):
    """`count` pairs of timings, which of the two runs first alternating from pair to pair."""
    pairs = []
    for i in range(count):
        if i % 2 == 0:
            a = first(i)
            b = second(i)
        else:
            b = second(i)
            a = first(i)
        pairs.append((a, b))
    return pairs

big = ["; ".join(f"add big {line}-{i}" for i in range(1000)) for line in range(9)]
keys = ["a_list", "a_list_none", "b", "c_first", "c_next", "d_history", "d_none", "e_add", "e_add_none"]
results = {name: {key: [] for key in keys} for name in builds}
for run in range(runs):
    for name, todo in builds.items():
        # a. The 9,050-item list, with its history and without; one-shot lists, alternating.
        with_history = fresh(f"a-{name}")
        piped(todo, with_history, big + [f"add single {i}" for i in range(50)])
        without = fresh(f"a-none-{name}")
        piped(todo, without, big + [f"add single {i}" for i in range(50)], NO_HISTORY)
        one_shot(todo, with_history, ["list"])   # warm the page cache for both
        one_shot(todo, without, ["list"])
        pairs = alternating(lambda _: one_shot(todo, with_history, ["list"]), lambda _: one_shot(todo, without, ["list"]), 7)
        results[name]["a_list"].append(statistics.median(p[0] for p in pairs))
        results[name]["a_list_none"].append(statistics.median(p[1] for p in pairs))
        # e. One-shot adds on the same lists.
        pairs = alternating(lambda i: one_shot(todo, with_history, ["add", f"one-shot {i}"]),
                            lambda i: one_shot(todo, without, ["add", f"one-shot {i}"], NO_HISTORY), 7)
        results[name]["e_add"].append(statistics.median(p[0] for p in pairs))
        results[name]["e_add_none"].append(statistics.median(p[1] for p in pairs))
        # b. 10,000 single adds.
        path = fresh(f"b-{name}")
        start = time.perf_counter()
        piped(todo, path, [f"add Item {i}" for i in range(10000)])
        results[name]["b"].append(time.perf_counter() - start)
        # c. Nine lines of 1,000 adds, then 200 single adds in the same session.
        path = fresh(f"c-{name}")
        stamps = piped(todo, path, big + [f"add single {i}" for i in range(200)])
        results[name]["c_first"].append(stamps[9100] - stamps[9000])
        results[name]["c_next"].append(stamps[9200] - stamps[9100])
        # d. 2,000 adds with and without history.
        order = [("d_history", None), ("d_none", NO_HISTORY)]
        for key, env in order if run % 2 == 0 else reversed(order):
            path = fresh(f"d-{name}")
            start = time.perf_counter()
            piped(todo, path, [f"add Item {i}" for i in range(2000)], env)
            results[name][key].append(time.perf_counter() - start)

print(f"{runs} runs, builds alternating; medians over runs")
for name in builds:
    r = {key: statistics.median(values) for key, values in results[name].items()}
    print(f"{name}:")
    print(f"  a. one-shot list, 9,050 items: {r['a_list'] * 1000:.1f} ms (target < 30 ms); without history "
          f"{r['a_list_none'] * 1000:.1f} ms ({r['a_list'] / r['a_list_none']:.2f}×; target ≤ 1.3×)")
    print(f"  b. 10,000 piped adds {r['b']:.2f} s (target < 5 s)")
    print(f"  c. 100 single adds after the nine lines {r['c_first']:.3f} s, the next 100 {r['c_next']:.3f} s"
          f" ({r['c_first'] / r['c_next']:.2f}×; target ≤ 1.2×)")
    print(f"  d. 2,000 piped adds {r['d_history']:.2f} s, with TODO_HISTORY_LIMIT=0 {r['d_none']:.2f} s"
          f" ({r['d_history'] / r['d_none']:.2f}×; target ≤ 1.2×)")
    print(f"  e. one-shot add on a's list {r['e_add'] * 1000:.1f} ms, with TODO_HISTORY_LIMIT=0 {r['e_add_none'] * 1000:.1f} ms"
          f" ({r['e_add'] / r['e_add_none']:.2f}×; target ≤ 1.2×)")
PY
