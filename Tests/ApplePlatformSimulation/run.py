#!/usr/bin/env python3
"""Builds the Apple-platform patterns of README's "On Apple platforms" on Linux, and checks
that UndoKit declares no name Apple's SDK declares without a guard.

No Apple platform runs here, so this package simulates one (see Package.swift): stand-ins for
Apple's modules, and UndoKit compiled as on an Apple platform. In SCRATCH (default
`.build-apple-sim/` in the repository):

  1. README's blocks marked `<!-- apple-simulation: PATH -->` must equal the files PATH of this
     package, so that what README shows is what is built;
  2. `apple/`: UndoKit as on an Apple platform and pattern (b) (a module-level typealias; a
     library with a scoped import; that library's client), built without warnings and run;
  3. `apple-without-undokit/`: pattern (a) as on an Apple platform: the dependency on UndoKit
     conditioned out, in a folder where UndoKit is never built (it must not be there after);
  4. `linux/`: pattern (a) on Linux, from README's manifest for it, beside a checkout named
     UndoKit (a link to this repository), built without warnings and run;
  5. check-clashes.py on the UndoKit modules of 2 and 4.

Every step runs even when an earlier one fails, and the summary names those that failed.

    Tests/ApplePlatformSimulation/run.py [--scratch DIR]

Standard library only.
"""
import argparse
import pathlib
import re
import shutil
import subprocess
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
MARKED = re.compile(r"^<!--\s*apple-simulation:\s*(\S+)\s*-->\s*$")
MANIFEST = re.compile(r"^<!--\s*swift-sample:\s*not-a-program\s*\(apple-simulation: the manifest of pattern \(a\)")
FENCE = re.compile(r"^```")


def block_after(lines, index):
    """The text of the fenced block that starts on the line after `index`."""
    start = index + 2
    end = next(i for i in range(start, len(lines)) if FENCE.match(lines[i]))
    return "\n".join(lines[start:end]) + "\n"


def readme_blocks():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    files, manifest = {}, None
    for index, line in enumerate(lines):
        marked = MARKED.match(line)
        if marked:
            files[marked.group(1)] = block_after(lines, index)
        elif MANIFEST.match(line):
            manifest = block_after(lines, index)
    return files, manifest


class Steps:
    def __init__(self):
        self.failed = []

    def run(self, name, command, expect=None, show=False):
        """Runs a command; the step fails on a non-zero exit or when `expect` is not in its output.
        `show` prints the whole output."""
        started = time.monotonic()
        result = subprocess.run(command, text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        ok = result.returncode == 0 and (expect is None or expect in result.stdout)
        print(f"  {name}: {'ok' if ok else 'FAILED'} ({time.monotonic() - started:.1f} s)", flush=True)
        if show:
            print("\n".join("    " + l for l in result.stdout.splitlines()))
        elif not ok:
            lines = result.stdout.splitlines()
            errors = [l for l in lines if "error:" in l or "FAILED" in l]
            print("\n".join("    " + l for l in (errors or lines)[-30:]))
        if not ok:
            self.failed.append(name)
        return ok

    def check(self, name, ok, detail=""):
        print(f"  {name}: {'ok' if ok else 'FAILED'}{'' if ok else ' ' + detail}", flush=True)
        if not ok:
            self.failed.append(name)


def build(package, scratch, product=None):
    command = ["swift", "build", "--package-path", str(package), "--scratch-path", str(scratch),
               "-Xswiftc", "-warnings-as-errors"]
    return command + (["--product", product] if product else [])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scratch", type=pathlib.Path, default=ROOT / ".build-apple-sim")
    scratch = parser.parse_args().scratch.resolve()
    scratch.mkdir(parents=True, exist_ok=True)
    steps = Steps()
    started = time.monotonic()
    print("apple-platform simulation:", flush=True)

    files, manifest = readme_blocks()
    for path in ("Sources/PatternAOnApple/Sketch.swift", "Sources/PatternB/UndoKitEverywhere.swift"):
        text = (HERE / path).read_text(encoding="utf-8")
        steps.check(f"README's block for {path} is the file", files.get(path) == text,
                    "(mark the block with <!-- apple-simulation: PATH --> and keep the two the same)")
    steps.check("README has the manifest of pattern (a)", manifest is not None)

    apple = scratch / "apple"
    if steps.run("UndoKit as on an Apple platform, pattern (b): build", build(HERE, apple, "PatternB")):
        steps.run("pattern (b): run", [str(apple / "debug/PatternB")], expect="ok")
    if steps.run("pattern (b), a library's client: build", build(HERE, apple, "PatternBClient")):
        steps.run("pattern (b), a library's client: run", [str(apple / "debug/PatternBClient")], expect="ok")

    without = scratch / "apple-without-undokit"
    if steps.run("pattern (a) as on an Apple platform: build", build(HERE, without, "PatternAOnApple")):
        steps.check("pattern (a) as on an Apple platform: UndoKit was not built",
                    not (without / "debug/Modules/UndoKit.swiftmodule").exists())
        steps.run("pattern (a) as on an Apple platform: Foundation's manager chosen",
                  [str(without / "debug/PatternAOnApple")], expect="with Foundation's UndoManager")

    linux = scratch / "linux"
    link = scratch / "UndoKit"
    if link.is_symlink() or link.exists():
        link.unlink()
    link.symlink_to(ROOT, target_is_directory=True)
    app = scratch / "MyApp"
    shutil.rmtree(app / "Sources", ignore_errors=True)
    (app / "Sources/MyApp").mkdir(parents=True)
    (app / "Package.swift").write_text(manifest or "", encoding="utf-8")
    for name in ("Sketch.swift", "main.swift"):
        shutil.copy(HERE / "Sources/PatternAOnApple" / name, app / "Sources/MyApp" / name)
    if steps.run("pattern (a) on Linux, README's manifest: build", build(app, linux)):
        steps.run("pattern (a) on Linux: run", [str(linux / "debug/MyApp")], expect="with UndoKit's UndoManager: ok")

    if (apple / "debug/Modules/UndoKit.swiftmodule").exists() and (linux / "debug/Modules/UndoKit.swiftmodule").exists():
        steps.run("check-clashes", [sys.executable, str(HERE / "check-clashes.py"),
                                    "--apple-modules", str(apple / "debug/Modules"),
                                    "--linux-modules", str(linux / "debug/Modules"),
                                    "--scratch", str(scratch / "symbols")], expect="no unguarded clash", show=True)
    else:
        steps.check("check-clashes", False, "(UndoKit was not built for both platforms)")

    elapsed = time.monotonic() - started
    if steps.failed:
        print(f"apple-platform simulation: FAILED ({', '.join(steps.failed)}), {elapsed:.0f} s")
        return 1
    print(f"apple-platform simulation: ok, {elapsed:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
