#!/usr/bin/env python3
"""Compare two builds of undokit-bench in one run, alternating them.

Each round runs every build once per workload (one process each, one repetition, the order of
the builds rotating from round to round), so a noisy minute hits both. Prints, per workload and
phase, the median ns per operation of each build over the rounds and the ratio new/old.

    Benchmarks/Tools/compare_builds.py OLD_BINARY NEW_BINARY [--workloads W1,W2,W3,W4]
                                       [--n 200000] [--rounds 7] [--api commands]
                                       [--old-api commands]

`--api` reaches the new build only; give `--old-api` too to compare the same API in both
(a build older than the command API takes neither).

Standard library only.
"""
import argparse
import json
import statistics
import subprocess
import sys


def run(binary, workload, n, api):
    command = [binary, "--in-process", "--json", "--workload", workload, "--n", str(n), "--repetitions", "1"]
    if api:
        command += ["--api", api]
    output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    return [json.loads(line) for line in output.splitlines() if line.startswith("{")]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--workloads", default="W1,W2,W3,W4")
    parser.add_argument("--n", type=int, default=200_000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--api", default=None, help="passed to the new build, e.g. commands")
    parser.add_argument("--old-api", default=None,
                        help="passed to the old build (default: none, for builds older than --api)")
    arguments = parser.parse_args()

    builds = [("old", arguments.old, arguments.old_api), ("new", arguments.new, arguments.api)]
    samples = {}
    for round_index in range(arguments.rounds):
        order = builds if round_index % 2 == 0 else list(reversed(builds))
        for workload in arguments.workloads.split(","):
            for label, binary, api in order:
                for line in run(binary, workload, arguments.n, api):
                    key = (line["workload"], line["phase"])
                    samples.setdefault(key, {}).setdefault(label, []).append(line["ns_per_op"])
        print(f"round {round_index + 1}/{arguments.rounds} done", file=sys.stderr)

    print(f"n = {arguments.n}, {arguments.rounds} alternating rounds, median ns per operation")
    print(f"{'workload':<8} {'phase':<18} {'old':>9} {'new':>9} {'new/old':>8}")
    for (workload, phase), by_build in samples.items():
        if "old" not in by_build or "new" not in by_build:
            continue
        old = statistics.median(by_build["old"])
        new = statistics.median(by_build["new"])
        print(f"{workload:<8} {phase:<18} {old:>9.1f} {new:>9.1f} {new / old:>8.3f}")


if __name__ == "__main__":
    main()
