#!/usr/bin/env bash
# `todo` on PostgreSQL beside SQLite, in a release build (issue 36, item 4):
#
#   Benchmarks/TODO/postgres.sh [N] [RUNS]      (N = 10000 items, RUNS = 3 by default)
#
# a. N piped `add` lines into one `todo` process, on a new list: every line is one transaction
#    (SQLite: the file's write lock; PostgreSQL: a transaction over TCP to 127.0.0.1 that locks
#    the list's revision row's table, writes the item and its undo step, notifies, commits);
# b. one-shot `todo list` on the resulting N-item list, 7 runs per backend, interleaved.
# Each measurement alternates the backends, RUNS times for a.; medians, and PostgreSQL's
# median over SQLite's.
#
# The PostgreSQL server is a throwaway one started here, as the tests do: `initdb` into a
# temporary folder, `pg_ctl` on a free port of 127.0.0.1 and a Unix socket in that folder, as
# the `postgres` user when run as root; stopped and removed at the end. Unlike the tests' server
# it keeps PostgreSQL's default durability (fsync and synchronous_commit on), as SQLite keeps
# its own (WAL, synchronous=NORMAL or whatever TODOKit sets): each commit waits for the disk the
# way a real server would. Timings are wall-clock on whatever else the machine is doing: compare
# within a run.
set -euo pipefail
cd "$(dirname "$0")/../.."
count="${1:-10000}"
runs="${2:-3}"

source Benchmarks/TODO/throwaway-postgres.sh
find_postgres_bindir
[ -n "$bindir" ] || { echo "no PostgreSQL server programs (apt-get install postgresql)" >&2; exit 1; }

swift build -c release --product todo --scratch-path .build-bench >&2
todo="$PWD/.build-bench/release/todo"

start_throwaway_postgres todokit-bench-pg

python3 - "$todo" "$bindir/psql" "$server" "$port" "$count" "$runs" <<'PY'
import os, statistics, subprocess, sys, tempfile, threading, time

todo, psql, socket_dir, port, count, runs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), int(sys.argv[6])
work = tempfile.mkdtemp()
ENV = {"HOME": work}

def sql(statement):
    subprocess.run([psql, "-h", socket_dir, "-p", port, "-U", "postgres", "-d", "postgres", "-q", "-c", statement],
                   check=True, stdout=subprocess.DEVNULL)

fresh = {"n": 0}
def new_list(backend):
    """The todo arguments of a new, empty list on `backend`."""
    fresh["n"] += 1
    if backend == "sqlite":
        return ["--file", f"{work}/list-{fresh['n']}.db"]
    name = f"bench_{fresh['n']}"
    sql(f"CREATE DATABASE {name}")
    return ["--database", f"postgres://postgres@127.0.0.1:{port}/{name}"]

def piped(arguments):
    """N adds on one todo's standard input; the seconds from start to its exit."""
    start = time.perf_counter()
    process = subprocess.Popen([todo] + arguments, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, env=ENV)
    def feed():
        for number in range(1, count + 1):
            process.stdin.write(f"add Item {number} of the run\n".encode())
        process.stdin.close()
    threading.Thread(target=feed, daemon=True).start()
    lines = sum(1 for _ in process.stdout)
    process.wait()
    elapsed = time.perf_counter() - start
    assert process.returncode == 0 and lines == count, (process.returncode, lines)
    return elapsed

def one_shot(arguments):
    start = time.perf_counter()
    result = subprocess.run([todo] + arguments, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV)
    elapsed = time.perf_counter() - start
    assert result.returncode == 0, arguments
    return elapsed

backends = ["sqlite", "postgres"]
adds = {backend: [] for backend in backends}
lists = {}
for _ in range(runs):
    for backend in backends:
        arguments = new_list(backend)
        adds[backend].append(piped(arguments))
        lists[backend] = arguments

listing = {backend: [] for backend in backends}
for _ in range(7):
    for backend in backends:
        listing[backend].append(one_shot(lists[backend] + ["list"]))

def row(name, samples, scale, unit):
    median = statistics.median(samples)
    return f"  {name:<10} median {median * scale:8.1f} {unit}  (min {min(samples) * scale:.1f}, max {max(samples) * scale:.1f}, {len(samples)} runs)"

print(f"a. {count} piped adds, one process, a new list each run:")
for backend in backends:
    print(row(backend, adds[backend], 1, "s"))
print(f"  PostgreSQL / SQLite = {statistics.median(adds['postgres']) / statistics.median(adds['sqlite']):.2f}")
print(f"b. one-shot `todo list` on the {count}-item list:")
for backend in backends:
    print(row(backend, listing[backend], 1000, "ms"))
print(f"  PostgreSQL / SQLite = {statistics.median(listing['postgres']) / statistics.median(listing['sqlite']):.2f}")
PY
