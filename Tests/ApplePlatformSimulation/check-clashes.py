#!/usr/bin/env python3
"""Fails when UndoKit declares a public name that Apple's SDK also declares, unguarded.

A consumer that imports Foundation and UndoKit on an Apple platform sees both modules' names;
where both declare one (`UndoManager`, a notification name, a run loop mode...), a use of it
is ambiguous and the consumer does not compile. UndoKit therefore declares Apple's names only
where Apple's SDK lacks them (`#if !canImport(Darwin)` and the like), and this check proves it
from the compiled modules, not from the source:

  - the names UndoKit can clash with are its public top-level declarations and the members it
    adds to other modules' types (a member of UndoKit's own types is reached through an UndoKit
    type, so it cannot clash), taken from the symbol graph of UndoKit built for Linux and of
    UndoKit built as on an Apple platform (the simulation's `UndoKit`);
  - Apple's names are those of the simulation's stand-ins for Apple's modules
    (AppleFoundation, AppKit, UIKit, ObjectiveC, Darwin) and of Foundation, FoundationEssentials,
    Dispatch and Observation as the toolchain ships them (Apple's SDK declares those too).

Every name in both lists must be either absent from the Apple-platform build (guarded: the
report names the `#if` around it) or in ALLOWED below, with the reason it cannot clash. An
ALLOWED entry that no longer overlaps fails too, so that the list stays true. UndoKit must not
make another module's type conform to a protocol (Apple's SDK may declare the same conformance),
nor declare public names beginning with `_`, which symbol graphs leave out.

    check-clashes.py --apple-modules DIR --linux-modules DIR [--scratch DIR]

DIRs are SwiftPM `Modules` directories holding UndoKit.swiftmodule (and, for the Apple build,
the stand-ins). Standard library only; uses `swift symbolgraph-extract`.
"""
import argparse
import json
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
STAND_INS = ["AppleFoundation", "AppKit", "UIKit", "ObjectiveC", "Darwin"]
TOOLCHAIN = ["Foundation", "FoundationEssentials", "Dispatch", "Observation"]
# Conformances every type has unless it opts out, which symbol graphs list beside a declared one.
IMPLICIT_CONFORMANCES = {"Swift.Copyable", "Swift.Escapable", "Swift.BitwiseCopyable"}

IDENTIFIER = ("constrained to UndoKit's own `UndoManager.{}`, Foundation's to its manager's: the "
              "subject's type picks one (`addObserver(of: manager, for: .{})`)")
MESSAGES = [("checkpoint", "CheckpointMessage"), ("didOpenUndoGroup", "DidOpenUndoGroupMessage"),
            ("willCloseUndoGroup", "WillCloseUndoGroupMessage"), ("didCloseUndoGroup", "DidCloseUndoGroupMessage"),
            ("willUndoChange", "WillUndoChangeMessage"), ("didUndoChange", "DidUndoChangeMessage"),
            ("willRedoChange", "WillRedoChangeMessage"), ("didRedoChange", "DidRedoChangeMessage")]

# Names UndoKit declares on Apple platforms too, and why each cannot make a consumer ambiguous.
ALLOWED = {
    "UndoManager": "UndoKit's manager itself, a class of its own beside Foundation's: a consumer that "
                   "imports both picks one per module, pattern (a) or (b) (README, \"On Apple platforms\")",
    "NotificationCenter.addObserver(of:for:using:)":
        "overloads taking UndoKit's UndoManager as subject; Foundation's are generic over the subject, so "
        "Swift prefers UndoKit's for UndoKit's manager and can only pick Foundation's for any other subject",
    "NotificationCenter.messages(of:for:bufferSize:)":
        "an overload taking UndoKit's UndoManager as subject, for main-actor messages; Foundation's are "
        "for AsyncMessage types only, so no call matches both",
}
ALLOWED.update({f"NotificationCenter.MessageIdentifier.{name}": IDENTIFIER.format(message, name)
                for name, message in MESSAGES})


def extract(module, search_path, output, triple, synthesized=True):
    output.mkdir(parents=True, exist_ok=True)
    for old in output.glob(f"{module}.symbols.json"):
        old.unlink()
    for old in output.glob(f"{module}@*.symbols.json"):
        old.unlink()
    command = ["swift", "symbolgraph-extract", "-module-name", module, "-target", triple,
               "-output-dir", str(output)]
    if search_path:
        command += ["-I", str(search_path)]
    if not synthesized:
        # Members a conformance gives a type by default (`!=`, `hashValue` ...) are not declared
        # by UndoKit; the conformance itself is reported.
        command.append("-skip-synthesized-members")
    run = subprocess.run(command, text=True, capture_output=True)
    if run.returncode != 0:
        sys.exit(f"check-clashes: symbolgraph-extract {module} failed:\n{run.stderr}")


def graphs(directory, module):
    """(file name, parsed graph) for the module's own graph and its extension graphs."""
    files = sorted(directory.glob(f"{module}.symbols.json")) + sorted(directory.glob(f"{module}@*.symbols.json"))
    return [(f.name, json.loads(f.read_text(encoding="utf-8"))) for f in files]


def all_names(directory, module, usr_paths):
    names = set()
    for _, graph in graphs(directory, module):
        for symbol in graph["symbols"]:
            path = ".".join(symbol["pathComponents"])
            names.add(path)
            usr_paths[symbol["identifier"]["precise"]] = path
    return names


def clash_surface(directory):
    """UndoKit's top-level names and the members it adds to other modules' types, with where each
    is declared; and the conformances it adds to other modules' types."""
    surface, conformances = {}, []
    for file_name, graph in graphs(directory, "UndoKit"):
        extension_graph = "@" in file_name
        own = {symbol["identifier"]["precise"] for symbol in graph["symbols"]}
        for symbol in graph["symbols"]:
            if extension_graph or len(symbol["pathComponents"]) == 1:
                surface[".".join(symbol["pathComponents"])] = symbol.get("location")
        if extension_graph:
            for relation in graph["relationships"]:
                implicit = relation.get("targetFallback") in IMPLICIT_CONFORMANCES
                if relation["kind"] == "conformsTo" and relation["source"] not in own and not implicit:
                    conformances.append((relation["source"], relation.get("targetFallback", relation["target"])))
    return surface, conformances


def guard_of(location):
    """The innermost `#if` around a declaration, as `#if ... (file)`."""
    if not location:
        return "a condition that excludes it"
    path = pathlib.Path(location["uri"].removeprefix("file://")).resolve()
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return "a condition that excludes it"
    depth = 0
    for line in reversed(lines[:location["position"]["line"]]):
        stripped = line.strip()
        if stripped.startswith("#endif"):
            depth += 1
        elif stripped.startswith("#if"):
            if depth == 0:
                return f"{stripped}, {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name}"
            depth -= 1
    return "no #if found"


UNDERSCORED = re.compile(r"^\s*(?:@[\w.]+(?:\([^)]*\))?\s+)*(?:public|open)\s+(?:[\w()]+\s+)*"
                         r"(?:func|var|let|class|struct|enum|protocol|typealias|actor|case)\s+_\w*")


def underscored_public_names():
    found = []
    for path in sorted((ROOT / "Sources/UndoKit").rglob("*.swift")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if UNDERSCORED.match(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--apple-modules", type=pathlib.Path, required=True)
    parser.add_argument("--linux-modules", type=pathlib.Path, required=True)
    parser.add_argument("--scratch", type=pathlib.Path, default=ROOT / ".build-apple-sim/symbols")
    arguments = parser.parse_args()

    info = json.loads(subprocess.run(["swift", "-print-target-info"], text=True, capture_output=True,
                                     check=True).stdout)
    triple = info["target"]["triple"]
    linux_dir, apple_dir, sdk_dir = (arguments.scratch / part for part in ("linux", "apple", "sdk"))
    extract("UndoKit", arguments.linux_modules, linux_dir, triple, synthesized=False)
    extract("UndoKit", arguments.apple_modules, apple_dir, triple, synthesized=False)
    for module in STAND_INS:
        extract(module, arguments.apple_modules, sdk_dir, triple)
    for module in TOOLCHAIN:
        extract(module, None, sdk_dir, triple)

    usr_paths = {}
    apple_names = set()
    for module in STAND_INS + TOOLCHAIN:
        apple_names |= all_names(sdk_dir, module, usr_paths)
    linux_surface, linux_conformances = clash_surface(linux_dir)
    apple_surface, apple_conformances = clash_surface(apple_dir)
    if not linux_surface or not apple_surface:
        sys.exit("check-clashes: UndoKit's symbol graph is empty")

    failures = []
    rows = []
    for name in sorted((set(linux_surface) | set(apple_surface)) & apple_names):
        if name not in apple_surface:
            rows.append((name, f"guarded: {guard_of(linux_surface.get(name))}"))
        elif name in ALLOWED:
            rows.append((name, f"declared on Apple platforms too; cannot clash: {ALLOWED[name]}"))
        else:
            rows.append((name, "UNGUARDED CLASH: UndoKit declares it on Apple platforms, and so does Apple's SDK"))
            failures.append(f"{name}: declared by UndoKit on Apple platforms and by Apple's SDK; guard it "
                            f"(#if !canImport(Darwin), as the notification names are) or, if it cannot clash, "
                            f"add it to ALLOWED in {pathlib.Path(__file__).relative_to(ROOT)} with the reason")
    for name in sorted(set(ALLOWED) - (set(apple_surface) & apple_names)):
        failures.append(f"{name}: in ALLOWED but no longer declared by both; remove the entry")
    for source, protocol in sorted(set(linux_conformances) | set(apple_conformances)):
        failures.append(f"UndoKit makes {usr_paths.get(source, source)} conform to {protocol}: Apple's SDK may "
                        f"declare the same conformance; conform a type of UndoKit's own instead")
    for line in underscored_public_names():
        failures.append(f"public name beginning with `_`, which this check cannot see: {line}")

    width = max(len(name) for name, _ in rows) if rows else 0
    print(f"check-clashes: {len(linux_surface)} names UndoKit declares on Linux, {len(apple_surface)} on a "
          f"simulated Apple platform (top-level, or added to another module's type); "
          f"{len(rows)} of them Apple's SDK declares too:")
    for name, verdict in rows:
        print(f"  {name.ljust(width)}  {verdict}")
    if failures:
        print("check-clashes: FAILED")
        for failure in failures:
            print(f"  {failure}")
        return 1
    print("check-clashes: ok, no unguarded clash")
    return 0


if __name__ == "__main__":
    sys.exit(main())
