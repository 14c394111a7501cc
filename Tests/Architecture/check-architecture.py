#!/usr/bin/env python3
"""Fails when Sources/UndoKit breaks a layering rule of ARCHITECTURE.md.

ARCHITECTURE.md is a contract: a new engineer reads it, then this check tells them when their
change disagrees with it. Each rule below quotes the section it enforces. The sources are read
as text with comments and string literals removed (a trap message may name the coordinator; a
comment may say why an operation does not call it), so only code counts.

  1. Storage knows how steps are laid out and nothing of Apple's rules ("Layers"): a file in
     Storage/ names no feature or policy type (the coordinator, the part log, the stale-step
     policy, saved histories, notifications, Observation, the manager itself) and sets no
     clean mark.
  2. Operations do not call features; features listen to the ledger's edits ("A transaction's
     life", "Where a new feature hooks in"): undo/redo, grouping, clearing, coalescing and the
     stale-step operations name none of the history tree, the coordinator and the part log.
  3. One clean-mark owner ("The step ledger"): `CleanMarkKeeper`, outside Storage, holds the
     manager's mark as `private(set)` and changes it only through its own methods; nothing
     replaces the ledger's mark or keeper wholesale.
  4. Step ids are given by the ledger and never twice ("The step ledger"): the counter of the
     next id is written in the ledger's file only.
  5. Each concept has its own folder, mirrored by its tests ("Where a new feature hooks in"):
     every folder of Sources/UndoKit with Swift files has Tests/UndoKitTests/<the same name>/.

    Tests/Architecture/check-architecture.py [--self-test]

`--self-test` also checks the checker: it copies the sources, breaks each rule once and fails
unless every break is reported (and the copy without breaks passes). Standard library only.
"""
import argparse
import pathlib
import re
import shutil
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]

# Rule 1: what Storage must not name: feature and policy types and the manager's fields that hold
# them. (Storage may name `UndoManager` as a namespace or hand an action its manager; it may not
# extend the manager with logic, which is what `extension UndoManager` is for elsewhere.)
STORAGE_FORBIDDEN = [
    "UndoCoordinator",
    "PartChangeLog",
    "StaleStepPolicy",
    "UndoHistory",
    "NotificationCenter",
    "ObservationState",
    "historyTree",
    "partLog",
    "coordinator",
    "staleStepPolicy",
]

# Rule 2: the operation files, and the features they must not name.
OPERATION_FILES = [
    "UndoManager/UndoManager+UndoRedo.swift",
    "UndoManager/UndoManager+Grouping.swift",
    "UndoManager/UndoManager+Clearing.swift",
    "UndoManager/UndoManager+Coalescing.swift",
    "EditingTogether/UndoManager+StaleSteps.swift",
]
FEATURES = ["historyTree", "coordinator", "partLog", "UndoCoordinator", "PartChangeLog", "HistoryTreeState"]

# An assignment, not a declaration's initial value (`var cleanMark = CleanMark.start`).
CLEAN_MARK_ASSIGNMENT = re.compile(r"(?<!var )(?<!let )\bcleanMark\s*(=(?!=)|\+=|-=)")
EXTENDS_MANAGER = re.compile(r"\bextension\s+UndoManager\b")
LEDGER_MARK_OVERWRITE = re.compile(r"\bledger\.cleanMark(Keeper)?\s*=(?!=)")
KEEPER_DECLARATION = re.compile(r"\bstruct\s+CleanMarkKeeper\b")
KEEPER_MARK = re.compile(r"\bprivate\(set\)\s+var\s+mark\b")
NEXT_ID_WRITE = re.compile(r"\bnextStepID\s*(=(?!=)|&\+=|\+=|-=|&-=)")


def code_only(text):
    """The text with comments and string literals blanked out, line breaks kept."""
    out = []
    i = 0
    n = len(text)
    depth = 0  # nesting of /* */ comments
    while i < n:
        c = text[i]
        if depth:
            if text.startswith("/*", i):
                depth += 1
                i += 2
            elif text.startswith("*/", i):
                depth -= 1
                i += 2
            else:
                out.append("\n" if c == "\n" else " ")
                i += 1
        elif text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif text.startswith("/*", i):
            depth = 1
            i += 2
        elif text.startswith('"""', i):
            end = text.find('"""', i + 3)
            end = n if end < 0 else end + 3
            out.append("".join("\n" if ch == "\n" else " " for ch in text[i:end]))
            i = end
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"' and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(" " * (j + 1 - i))
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def swift_files(folder):
    return sorted(p for p in folder.rglob("*.swift"))


def find(pattern, path, sources):
    """(line number, line) for each match of pattern in the code of path."""
    code = code_only(path.read_text()).splitlines()
    return [(number, line.strip()) for number, line in enumerate(code, 1) if pattern.search(line)]


def check(sources, tests=ROOT / "Tests/UndoKitTests"):
    problems = []

    def report(rule, path, number, line, why):
        problems.append(f"{path.relative_to(sources.parent.parent)}:{number}: rule {rule}: {why}\n    {line}")

    storage_names = re.compile(r"\b(" + "|".join(STORAGE_FORBIDDEN) + r")\b")
    for path in swift_files(sources / "Storage"):
        for number, line in find(storage_names, path, sources):
            name = storage_names.search(line).group(1)
            report(1, path, number, line,
                   f"Storage names `{name}`; Storage knows how steps are laid out and nothing of "
                   "Apple's rules or the features (ARCHITECTURE.md, \"Layers\"): move the logic to "
                   "UndoManager/ or the feature's folder")
        for number, line in find(EXTENDS_MANAGER, path, sources):
            report(1, path, number, line,
                   "Storage extends the manager; operations on the manager live in UndoManager/ or the "
                   "feature's folder (ARCHITECTURE.md, \"Layers\")")
        for number, line in find(CLEAN_MARK_ASSIGNMENT, path, sources):
            report(1, path, number, line,
                   "Storage sets the clean mark; its rules belong to the clean-mark owner "
                   "(ARCHITECTURE.md, \"The step ledger\")")

    feature_names = re.compile(r"\b(" + "|".join(FEATURES) + r")\b")
    for relative in OPERATION_FILES:
        path = sources / relative
        if not path.exists():
            problems.append(f"{relative}: rule 2: the operation file is missing; update OPERATION_FILES "
                            "in Tests/Architecture/check-architecture.py and ARCHITECTURE.md together")
            continue
        for number, line in find(feature_names, path, sources):
            name = feature_names.search(line).group(1)
            report(2, path, number, line,
                   f"an operation names `{name}`; operations record step edits and features listen "
                   "to them in settle() (ARCHITECTURE.md, \"Where a new feature hooks in\")")

    keepers = []
    for path in swift_files(sources):
        for number, line in find(LEDGER_MARK_OVERWRITE, path, sources):
            report(3, path, number, line,
                   "the clean mark is replaced from outside its owner; say what happened through "
                   "CleanMarkKeeper's methods (ARCHITECTURE.md, \"The step ledger\")")
        if find(KEEPER_DECLARATION, path, sources):
            keepers.append(path)
    if len(keepers) != 1:
        problems.append(f"rule 3: CleanMarkKeeper is declared in {len(keepers)} files, not one")
    for path in keepers:
        if path.parent.name == "Storage":
            report(3, path, 1, "struct CleanMarkKeeper", "the clean mark's rules are policy, not Storage")
        if not find(KEEPER_MARK, path, sources):
            report(3, path, 1, "var mark", "the keeper's mark must be private(set): only its methods change it")

    writers = {}
    for path in swift_files(sources):
        for number, line in find(NEXT_ID_WRITE, path, sources):
            writers.setdefault(path, []).append((number, line))
    ledger_files = {path for path in writers if "Ledger" in path.name}
    for path, hits in writers.items():
        if path not in ledger_files or len(ledger_files) > 1:
            for number, line in hits:
                report(4, path, number, line,
                       "the next step id is written outside the ledger; ask the ledger, which never "
                       "gives an id twice (ARCHITECTURE.md, \"The step ledger\")")
    for folder in sorted(p for p in sources.iterdir() if p.is_dir()):
        if any(folder.glob("*.swift")) and not (tests / folder.name).is_dir():
            problems.append(f"Sources/UndoKit/{folder.name}/: rule 5: no Tests/UndoKitTests/{folder.name}/; "
                            "a concept's folder is mirrored by its tests (ARCHITECTURE.md, "
                            "\"Where a new feature hooks in\")")
    return problems


def self_test():
    """Breaks each rule once in a copy of the sources; every break must be reported."""
    sources = ROOT / "Sources/UndoKit"
    if check(sources):
        print("check-architecture: self-test needs a clean tree first", file=sys.stderr)
        return 1
    breaks = [
        (1, "Storage/UndoStack.swift", "\nfunc architectureSelfTest(_ c: UndoCoordinator) {}\n"),
        (1, "Storage/UndoStack.swift", "\nextension UndoManager { func architectureSelfTest() {} }\n"),
        (1, "Storage/UndoStack.swift", "\nfunc architectureSelfTest(_ l: inout Int) { var cleanMark = 0; cleanMark = l }\n"),
        (2, "UndoManager/UndoManager+UndoRedo.swift",
         "\nextension UndoManager { func architectureSelfTest() { _ = state.historyTree } }\n"),
        (3, "History/UndoTree.swift",
         "\nextension UndoManager { func architectureSelfTest() { ledger.cleanMarkKeeper = CleanMarkKeeper() } }\n"),
        (4, "UndoManager/UndoManager+Grouping.swift",
         "\nfunc architectureSelfTest(_ l: inout (nextStepID: Int, Void)) { l.nextStepID = 1 }\n"),
        (5, "ArchitectureSelfTest/ArchitectureSelfTest.swift", "struct ArchitectureSelfTest {}\n"),
    ]
    failed = 0
    for rule, relative, text in breaks:
        with tempfile.TemporaryDirectory() as scratch:
            copy = pathlib.Path(scratch) / "Sources/UndoKit"
            shutil.copytree(sources, copy)
            (copy / relative).parent.mkdir(parents=True, exist_ok=True)
            with open(copy / relative, "a") as f:
                f.write(text)
            found = [p for p in check(copy) if f": rule {rule}:" in p]
            if not found:
                print(f"check-architecture: self-test: breaking rule {rule} in {relative} was not reported",
                      file=sys.stderr)
                failed += 1
    # A comment or a string that names a feature is not a break.
    with tempfile.TemporaryDirectory() as scratch:
        copy = pathlib.Path(scratch) / "Sources/UndoKit"
        shutil.copytree(sources, copy)
        with open(copy / "UndoManager/UndoManager+UndoRedo.swift", "a") as f:
            f.write('\n// the coordinator hears this through settle()\nlet architectureSelfTest = "coordinator"\n')
        if check(copy):
            print("check-architecture: self-test: a comment or string was reported", file=sys.stderr)
            failed += 1
    if failed:
        return 1
    print(f"check-architecture: self-test passed ({len(breaks)} breaks reported, comments and strings ignored)")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--self-test", action="store_true")
    arguments = parser.parse_args()
    problems = check(ROOT / "Sources/UndoKit")
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print(f"check-architecture: {len(problems)} problem(s); see ARCHITECTURE.md", file=sys.stderr)
        return 1
    print("check-architecture: Sources/UndoKit follows ARCHITECTURE.md's layering rules")
    if arguments.self_test:
        return self_test()
    return 0


if __name__ == "__main__":
    sys.exit(main())
