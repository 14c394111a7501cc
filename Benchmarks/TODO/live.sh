#!/usr/bin/env bash
# How soon a `todo` session waiting at its prompt shows another process's change (issue 36,
# item 2, "Live updates on both": target < 1 s), and what the waiting costs, on SQLite and on
# PostgreSQL. Release build (scratch path .build-bench).
#
#   Benchmarks/TODO/live.sh [RUNS] [BACKENDS]     (RUNS = 15; BACKENDS = "sqlite postgres",
#                                                  or "sqlite" where no PostgreSQL server is installed)
#
# Measures, per backend:
#   a. the time from one process's change to the other's live line, RUNS times: a session runs
#      on a pseudo-terminal with half a line typed at its prompt; a one-shot `todo add` changes
#      the list; the clock starts when the one-shot prints its result (which it does only after
#      its commit) and stops when the session's terminal shows "reloaded: N items" followed by
#      the redrawn prompt with the half-typed text. The trials are spaced by a random 0–1 s, so
#      that they fall anywhere in the session's polling interval (SQLite: every 250 ms;
#      PostgreSQL: woken by the NOTIFY of the change on its connection's socket). Prints the
#      median, the quartiles and the worst;
#   b. the processor time the waiting session used over 10 s at its prompt with nothing
#      changing (from /proc/PID/schedstat), in ms per second: whether it waits or spins.
# SQLite uses a new file; PostgreSQL a throwaway server started here as Benchmarks/TODO/
# postgres.sh starts one (`initdb` into a temporary folder, `pg_ctl` on a free port of
# 127.0.0.1, as the `postgres` user when run as root; stopped and removed at the end), the
# session and the one-shot on two TCP connections. Timings are wall-clock on whatever else
# the machine is doing: compare within a run.
#
# Results (2026-11-28, release, 2 cores shared with other builds), 20 trials each: SQLite
# median 146 ms (quartiles 44–203 ms, worst 235 ms), waiting costs 0.57 ms of processor time a
# second; PostgreSQL median 1 ms (quartiles 0–7 ms, worst 26 ms), waiting costs nothing
# measurable. See Benchmarks/README.md, "The TODO sample's live updates".
set -euo pipefail
cd "$(dirname "$0")/../.."
runs="${1:-15}"

source Benchmarks/TODO/throwaway-postgres.sh
find_postgres_bindir
if [ -n "$bindir" ]; then
    backends="${2:-sqlite postgres}"
else
    backends="${2:-sqlite}"
    echo "no PostgreSQL server programs (apt-get install postgresql): SQLite only" >&2
fi

swift build -c release --product todo --scratch-path .build-bench >&2
todo="$PWD/.build-bench/release/todo"

database=""
if [[ " $backends " == *" postgres "* ]]; then
    start_throwaway_postgres todokit-live-pg
    database="postgres://postgres@127.0.0.1:$port/postgres"
fi

python3 - "$todo" "$runs" "$backends" "$database" <<'PY'
import os, pty, random, re, select, statistics, subprocess, sys, tempfile, time

todo, runs, backends, database = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(), sys.argv[4]
work = tempfile.mkdtemp()


def measure(backend, where):
    env = {"TERM": "xterm", "HOME": work}
    # The session, on a pseudo-terminal of its own.
    pid, controller = pty.fork()
    if pid == 0:
        os.execve(todo, [todo] + where, {**env, "USER": "ana"})
    screen = b""

    def read_until(predicate, seconds=10):
        """Reads what the session draws until predicate(screen) holds; the time it did."""
        nonlocal screen
        deadline = time.perf_counter() + seconds
        while not predicate(screen):
            left = deadline - time.perf_counter()
            if left <= 0:
                raise SystemExit(f"{backend}: the session did not show it in {seconds} s: {screen[-300:]!r}")
            ready, _, _ = select.select([controller], [], [], left)
            if ready:
                screen += os.read(controller, 65536)
        return time.perf_counter()

    read_until(lambda s: b")> " in s)
    initial = int(re.search(rb"todo \((\d+) items?\)> ", screen).group(1))
    os.write(controller, b"add half-typ")
    read_until(lambda s: b"add half-typ\x1b[K" in s)

    def cpu_seconds():
        # schedstat's first field: nanoseconds on a processor (stat's utime and stime count
        # 10 ms ticks, too coarse for ten seconds of an idle process).
        return int(open(f"/proc/{pid}/schedstat").read().split()[0]) / 1e9

    # b. Idle: ten seconds at the prompt, nothing changing.
    before_cpu, before = cpu_seconds(), time.perf_counter()
    time.sleep(10)
    idle_ms_per_s = (cpu_seconds() - before_cpu) * 1000 / (time.perf_counter() - before)

    # a. Trials.
    latencies = []
    for trial in range(1, runs + 1):
        time.sleep(random.uniform(0, 1))
        shown_before = len(screen)
        one_shot = subprocess.Popen([todo] + where + ["add", f"item {trial}"], stdout=subprocess.PIPE,
                                    stderr=subprocess.DEVNULL, env={**env, "USER": "ben"})
        one_shot.stdout.readline()          # printed after the commit
        changed = time.perf_counter()
        count = initial + trial
        noun = "item" if count == 1 else "items"
        line = f"reloaded: {count} {noun}\r\n".encode()
        prompt = f"todo ({count} {noun})> add half-typ".encode()
        shown = read_until(lambda s: line in s[shown_before:] and prompt in s[s.rfind(line):])
        latencies.append(shown - changed)
        one_shot.wait()
        assert one_shot.returncode == 0

    os.write(controller, b"\x03\x04")
    os.waitpid(pid, 0)

    latencies.sort()
    quartiles = statistics.quantiles(latencies, n=4)
    print(f"{backend}: change in one process → live line in the other, {runs} trials:")
    print(f"  median {statistics.median(latencies) * 1000:.0f} ms, quartiles {quartiles[0] * 1000:.0f}–{quartiles[2] * 1000:.0f} ms, "
          f"best {latencies[0] * 1000:.0f} ms, worst {latencies[-1] * 1000:.0f} ms (target < 1,000 ms)")
    print(f"  all (ms): {' '.join(f'{l * 1000:.0f}' for l in latencies)}")
    print(f"  waiting at the prompt, nothing changing: {idle_ms_per_s:.3f} ms of processor time per second")


for backend in backends:
    if backend == "sqlite":
        measure("SQLite", ["--file", os.path.join(work, "todo.db")])
    elif backend == "postgres":
        measure("PostgreSQL", ["--database", database])
    else:
        raise SystemExit(f"unknown backend {backend!r}: sqlite or postgres")
PY
