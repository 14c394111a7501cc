#!/usr/bin/env python3
"""Instructions per action for undokit-bench's W1–W6 under callgrind.

Runs BENCH (a release build of undokit-bench) once per workload and API under
`valgrind --tool=callgrind`, then reads the call graph: `undo` and `redo` are the inclusive
instructions of `UndoManager.undo()` / `redo()` divided by the number of actions they undid
or redid (W1 and W4: one per call; W2: all N in one call; W3: ten per call); `register` is the
rest of the workload function (its set-up, registrations and teardown) divided by N; for W5,
`remove` is the inclusive instructions of `removeAllActions(withTarget:)` per call, and undo
is per undone group (W5 undoes N/2 groups, one per call). Instruction counts do not
depend on what else the machine is doing, so two builds can be compared from separate runs.

    Benchmarks/Tools/callgrind_per_action.py BENCH [--n 20000] [--workloads W1,W2,W3,W4]
                                             [--apis closures,commands] [--json]
                                             (workloads W1–W6)

Needs valgrind (Debian's `valgrind`). Standard library only.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

UNDO = "$s7UndoKit0A7ManagerC4undoyyF"
REDO = "$s7UndoKit0A7ManagerC4redoyyF"
REMOVE = "$s7UndoKit0A7ManagerC16removeAllActions10withTargetyyp_tF"
# The workload functions, e.g. GroupingWorkloads.w1(n:repetition:api:…): matched by name.
WORKLOAD = re.compile(r"17GroupingWorkloadsO2(w[1-6])")
# Actions undone (and redone) per undo() call, by workload.
ACTIONS_PER_CALL = {"W1": 1, "W3": 10, "W4": 1, "W5": 1, "W6": 1}


def parse(path):
    """Returns {function name: inclusive Ir of its calls, counted at call sites} and call counts."""
    names = {}
    inclusive = {}
    calls = {}
    pending_callee = None
    pending_calls = 0
    expect_call_cost = False

    def name_of(spec):
        # "(id) name" defines an id; "(id)" refers to one.
        m = re.match(r"\((\d+)\)(?: (.*))?", spec)
        if not m:
            return spec
        if m.group(2) is not None:
            names[m.group(1)] = m.group(2)
        return names.get(m.group(1), spec)

    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("fn="):
                name_of(line[3:])
            elif line.startswith("cfn="):
                pending_callee = name_of(line[4:])
            elif line.startswith("calls="):
                pending_calls = int(line[6:].split()[0])
                expect_call_cost = True
            elif expect_call_cost and line and (line[0].isdigit() or line[0] in "+-*"):
                cost = int(line.split()[1]) if len(line.split()) > 1 else 0
                inclusive[pending_callee] = inclusive.get(pending_callee, 0) + cost
                calls[pending_callee] = calls.get(pending_callee, 0) + pending_calls
                expect_call_cost = False
            elif line.startswith(("fl=", "fi=", "fe=", "cfi=", "cfl=", "ob=", "cob=")):
                # file/object names can be compressed too; keep ids consistent for fn only.
                pass
    return inclusive, calls


def measure(bench, workload, n, api):
    with tempfile.TemporaryDirectory() as scratch:
        out = os.path.join(scratch, "cg.out")
        command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", bench,
                   "--in-process", "--workload", workload, "--n", str(n), "--repetitions", "1"]
        if api != "closures":
            command += ["--api", api]
        subprocess.run(command, check=True, capture_output=True)
        inclusive, calls = parse(out)
    workload_cost = sum(cost for name, cost in inclusive.items() if WORKLOAD.search(name))
    undo, redo = inclusive.get(UNDO, 0), inclusive.get(REDO, 0)
    undo_calls, redo_calls = calls.get(UNDO, 0), calls.get(REDO, 0)
    remove, remove_calls = inclusive.get(REMOVE, 0), calls.get(REMOVE, 0)
    # W2 undoes its one group of N actions in one call.
    per_call = ACTIONS_PER_CALL.get(workload)
    undo_actions = undo_calls * per_call if per_call else n
    redo_actions = redo_calls * per_call if per_call else n
    return {
        "workload": workload, "api": api, "n": n,
        "register": round((workload_cost - undo - redo - remove) / n),
        "undo": round(undo / undo_actions) if undo_calls else None,
        "redo": round(redo / redo_actions) if redo_calls else None,
        "undo_calls": undo_calls, "redo_calls": redo_calls,
        "remove": round(remove / remove_calls) if remove_calls else None, "remove_calls": remove_calls,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("bench")
    parser.add_argument("--n", type=int, default=20_000)
    parser.add_argument("--workloads", default="W1,W2,W3,W4")
    parser.add_argument("--apis", default="closures,commands")
    parser.add_argument("--json", action="store_true")
    arguments = parser.parse_args()
    rows = []
    for api in arguments.apis.split(","):
        for workload in arguments.workloads.split(","):
            row = measure(arguments.bench, workload, arguments.n, api)
            rows.append(row)
            if arguments.json:
                print(json.dumps(row), flush=True)
            else:
                print(f"{workload} {api:<9} register {row['register']:>6}  undo {row['undo']!s:>6} "
                      f"({row['undo_calls']} calls)  redo {row['redo']!s:>6} ({row['redo_calls']} calls)"
                      + (f"  remove {row['remove']} per call ({row['remove_calls']} calls)" if row["remove_calls"] else ""),
                      flush=True)


if __name__ == "__main__":
    sys.exit(main())
