#!/usr/bin/env python3
"""Fails when Sources/UndoKit uses something specific to a platform.

README says UndoKit is expected to work on Windows and Android, where it is not built, because
nothing in it is specific to a platform. This checks that claim, three ways:

  1. imports: only Foundation, Dispatch, Observation and Synchronization, which the Swift
     toolchain ships for every platform (no Glibc, Musl, Darwin, WinSDK, ucrt, Android, ...);
  2. conditional compilation: no `#if` on `os(...)`, `arch(...)`, `targetEnvironment(...)`
     and the like; `canImport` only as the guards that leave out names Apple's SDKs declare
     themselves (`!canImport(Darwin)`, `!canImport(ObjectiveC)`, `!canImport(AppKit)`,
     `!canImport(UIKit)`: see README, "On Apple platforms");
  3. C functions: Foundation re-exports the platform's C library, so code can call `getpid()`
     or `pthread_mutex_lock()` without importing Glibc. The symbols that UndoKit's object
     files (a debug build) reference, other than Swift's own, must be the C standard
     library's `malloc`, `realloc` and `free`, what the compiler itself emits (`memcpy`,
     `memmove`, `memset`, `memcmp`, `bcmp`), or the blocks runtime that Dispatch's closures
     use (which ships with Dispatch wherever it does).

    Tests/Portability/check-portability.py [--no-build]

`--no-build` uses the objects already in `.build` (CI runs it right after building), instead
of running `swift build --target UndoKit` first. Standard library only, plus the toolchain's
`llvm-nm` (or `nm`).
"""
import argparse
import os
import pathlib
import re
import shutil
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
SOURCES = ROOT / "Sources/UndoKit"

ALLOWED_IMPORTS = {"Foundation", "Dispatch", "Observation", "Synchronization"}
# `!canImport(X)` leaves out, where X exists, a declaration Apple's SDK makes in X.
CLASH_GUARDS = {"Darwin", "ObjectiveC", "AppKit", "UIKit"}
HARMLESS_CONDITIONS = {"compiler", "swift", "hasFeature", "hasAttribute"}
ALLOWED_C_SYMBOLS = {
    "malloc": "C standard library", "realloc": "C standard library", "free": "C standard library",
    "memcpy": "emitted by the compiler", "memmove": "emitted by the compiler",
    "memset": "emitted by the compiler", "memcmp": "emitted by the compiler", "bcmp": "emitted by the compiler",
    "_Block_copy": "blocks runtime (Dispatch)", "_Block_release": "blocks runtime (Dispatch)",
    "_NSConcreteStackBlock": "blocks runtime (Dispatch)", "_NSConcreteGlobalBlock": "blocks runtime (Dispatch)",
}
SWIFT_SYMBOL = re.compile(r"^(\$s|\$e|swift_|_swift|__swift)")

IMPORT = re.compile(r"^\s*(?:@[\w.]+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?"
                    r"import\s+(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?([A-Za-z_]\w*)")
CONDITION = re.compile(r"^\s*#(?:if|elseif)\b(.*)$")
CALL = re.compile(r"(!?)\s*(\w+)\s*\(([^)]*)\)")


def without_comments(text):
    """The source with comments blanked, lines kept (string literals are not special-cased:
    UndoKit's sources have no `//` or `/*` inside one on an import or `#if` line)."""
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    return [line.split("//", 1)[0] for line in text.splitlines()]


def check_sources():
    problems, imports = [], set()
    files = sorted(SOURCES.rglob("*.swift"))
    for path in files:
        relative = path.relative_to(ROOT)
        for number, line in enumerate(without_comments(path.read_text(encoding="utf-8")), 1):
            imported = IMPORT.match(line)
            if imported:
                imports.add(imported.group(1))
                if imported.group(1) not in ALLOWED_IMPORTS:
                    problems.append(f"{relative}:{number}: imports {imported.group(1)}, which is not shipped "
                                    f"for every platform (allowed: {', '.join(sorted(ALLOWED_IMPORTS))})")
            condition = CONDITION.match(line)
            if condition:
                for negated, function, argument in CALL.findall(condition.group(1)):
                    argument = argument.strip()
                    if function == "canImport" and negated and argument in CLASH_GUARDS:
                        continue
                    if function in HARMLESS_CONDITIONS:
                        continue
                    problems.append(f"{relative}:{number}: `#if` on {negated}{function}({argument}) selects code "
                                    f"by platform; only {', '.join('!canImport(' + m + ')' for m in sorted(CLASH_GUARDS))} "
                                    f"may appear, to leave out names Apple's SDKs declare")
    return files, imports, problems


def nm_tool():
    swift = shutil.which("swift")
    if swift:
        beside = pathlib.Path(os.path.realpath(swift)).parent / "llvm-nm"
        if beside.exists():
            return str(beside)
    return shutil.which("llvm-nm") or shutil.which("nm")


def check_symbols(build):
    if build:
        subprocess.run(["swift", "build", "--package-path", str(ROOT), "--target", "UndoKit"], check=True,
                       stdout=subprocess.DEVNULL)
    bin_path = subprocess.run(["swift", "build", "--package-path", str(ROOT), "--show-bin-path"], text=True,
                              capture_output=True, check=True).stdout.strip()
    objects = sorted(pathlib.Path(bin_path, "UndoKit.build").glob("*.o"))
    if not objects:
        return [], [f"no object files in {bin_path}/UndoKit.build: build UndoKit first (or drop --no-build)"]
    tool = nm_tool()
    if tool is None:
        return [], ["neither llvm-nm nor nm found"]
    listing = subprocess.run([tool, "-u", *map(str, objects)], text=True, capture_output=True, check=True).stdout
    c_symbols = {}
    for line in listing.splitlines():
        fields = line.split()
        if not fields or line.endswith(":"):
            continue
        symbol = fields[-1]
        if not SWIFT_SYMBOL.match(symbol):
            c_symbols.setdefault(symbol, 0)
            c_symbols[symbol] += 1
    problems = [f"UndoKit's objects reference the C symbol `{symbol}`, which is not known to exist on every "
                f"platform (allowed: {', '.join(sorted(ALLOWED_C_SYMBOLS))}); call a Foundation or Swift API instead"
                for symbol in sorted(c_symbols) if symbol not in ALLOWED_C_SYMBOLS]
    return sorted(c_symbols), problems


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--no-build", action="store_true")
    arguments = parser.parse_args()

    files, imports, problems = check_sources()
    symbols, symbol_problems = check_symbols(not arguments.no_build)
    problems += symbol_problems
    print(f"check-portability: {len(files)} files in Sources/UndoKit import {', '.join(sorted(imports))}; "
          f"their objects reference the C symbols {', '.join(symbols) or 'none'}")
    if problems:
        print("check-portability: FAILED")
        for problem in problems:
            print(f"  {problem}")
        return 1
    print("check-portability: ok, nothing specific to a platform")
    return 0


if __name__ == "__main__":
    sys.exit(main())
