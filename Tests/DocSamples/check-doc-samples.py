#!/usr/bin/env python3
"""Compiles and runs every Swift code block of README.md and the DocC catalogs.

The blocks of one Markdown file form one program, in file order, as top-level code (a
`main.swift`) with `import Foundation` and `import UndoKit` (and `import TODOKit` for the
TODOKit catalog) above them. So a block may use what an earlier block of the same file
declared, and a file must not declare a name twice or leave a manager in a state that makes a
later block trap.

Two kinds of HTML comments, which neither GitHub nor DocC render, add code the reader does not
need to see:

    <!-- swift-setup
    final class Document { var text = "" }
    -->
        is inserted where it stands, before the next block: declarations a block uses;

    <!-- swift-check
    precondition(manager.undoMenuItemTitle == "Undo Typing")
    -->
        is inserted where it stands, after the previous block: turns what the prose or a
        comment claims into an assertion that runs.

    <!-- swift-sample: not-a-program -->
        before a block excludes it (a `Package.swift` fragment, say); the README's manifest
        is instead built for real, as a package of its own that depends on this one by path.

The programs are compiled in Swift 5 language mode (see the manifest below for why) as
targets of one throwaway SwiftPM package in SCRATCH (default
`.build-docsamples/` in the repository), which depends on this repository by `path:`, as
README's "Use UndoKit in your package" says. `#sourceLocation` directives make compiler errors
point at the Markdown file and line. Exits non-zero, naming the file, when a program fails to
build or to run.

    Tests/DocSamples/check-doc-samples.py [--scratch DIR] [FILE.md ...]

Standard library only.
"""
import argparse
import os
import pathlib
import re
import shutil
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
FENCE = re.compile(r"^(\s*)```(\S*)\s*$")
COMMENT_START = re.compile(r"^\s*<!--\s*swift-(setup|check)\s*$")
SKIP = re.compile(r"^\s*<!--\s*swift-sample:\s*(not-a-program|manifest)\b.*-->\s*$")
MANIFEST = re.compile(r"^\s*<!--\s*swift-sample:\s*manifest\b.*-->\s*$")


def default_files():
    files = [ROOT / "README.md"]
    files += sorted((ROOT / "Sources/UndoKit/UndoKit.docc").glob("*.md"))
    files += sorted((ROOT / "Sources/TODOKit/TODOKit.docc").glob("*.md"))
    return files


def program(path):
    """The Swift program of one Markdown file: its blocks, setups and checks in order."""
    lines = path.read_text(encoding="utf-8").splitlines()
    relative = path.relative_to(ROOT)
    parts = []
    blocks = 0
    i = 0
    skip_next = False
    while i < len(lines):
        line = lines[i]
        if SKIP.match(line):
            skip_next = True
            i += 1
            continue
        comment = COMMENT_START.match(line)
        if comment:
            start = i + 1
            i += 1
            while i < len(lines) and lines[i].strip() != "-->":
                i += 1
            parts.append(f'#sourceLocation(file: "{relative}", line: {start + 1})')
            parts += lines[start:i]
            i += 1
            continue
        fence = FENCE.match(line)
        if fence:
            language = fence.group(2)
            start = i + 1
            i += 1
            while i < len(lines) and not FENCE.match(lines[i]):
                i += 1
            if language == "swift" and not skip_next:
                blocks += 1
                indent = len(fence.group(1))
                parts.append(f'#sourceLocation(file: "{relative}", line: {start + 1})')
                parts += [l[indent:] if l[:indent].strip() == "" else l for l in lines[start:i]]
            skip_next = False
            i += 1
            continue
        i += 1
    return blocks, parts


def readme_manifest():
    """The `Package.swift` that README's "Use UndoKit in your package" shows."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    for index, line in enumerate(lines):
        if MANIFEST.match(line):
            start = index + 2   # the fence is the next line
            end = next(i for i in range(start, len(lines)) if FENCE.match(lines[i]))
            return "\n".join(lines[start:end]) + "\n"
    return None


def build_readme_package(scratch):
    """Builds and runs a package whose manifest is README's, beside a checkout named UndoKit."""
    manifest = readme_manifest()
    if manifest is None:
        print("README has no <!-- swift-sample: manifest --> block")
        return False
    package = scratch / "MyApp"
    (package / "Sources/MyApp").mkdir(parents=True, exist_ok=True)
    (package / "Package.swift").write_text(manifest, encoding="utf-8")
    (package / "Sources/MyApp/main.swift").write_text(
        "import UndoKit\n"
        "final class Note { var text = \"\" }\n"
        "let manager = UndoManager(), note = Note()\n"
        "manager.registerUndo(withTarget: note) { $0.text = \"\" }\n"
        "manager.setActionName(\"Typing\")\n"
        "manager.runLoop.tick()\n"
        "print(manager.undoMenuItemTitle)\n", encoding="utf-8")
    run = subprocess.run(["swift", "run", "--package-path", str(package), "MyApp"], text=True,
                         capture_output=True)
    ok = run.returncode == 0 and run.stdout.strip().endswith("Undo Typing")
    # The sample's SQLite is for the sample only: a package that depends on the UndoKit
    # product compiles none of TODOKit and links no SQLite.
    products = package / ".build" / "debug"
    link_lists = [p.read_text(encoding="utf-8") for p in (products / "MyApp.product").glob("Objects.LinkFileList")]
    linked = [pathlib.Path(line) for text in link_lists for line in text.splitlines()]
    sqlite = [str(p) for p in linked if p.parent.name in ("TODOKit.build", "CSQLite.build") or "sqlite" in p.name.lower()]
    compiled = list(products.glob("TODOKit.build/*.o"))
    if ok and (not link_lists or sqlite or compiled):
        ok = False
        print("  README.md's Package.swift links or compiles the sample's SQLite: " + ", ".join(sqlite + [str(c) for c in compiled]))
    print(f"  README.md's Package.swift, as a package of its own: {'ok' if ok else 'FAILED'}")
    if not ok:
        print("\n".join("    " + l for l in (run.stdout + run.stderr).splitlines()[-20:]))
    return ok


def target_name(path):
    stem = re.sub(r"[^A-Za-z0-9]", "", path.stem)
    catalog = "TODOKit" if "TODOKit.docc" in str(path) else ("UndoKit" if ".docc" in str(path) else "Readme")
    return f"Sample{catalog}{stem}"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="*", type=pathlib.Path)
    parser.add_argument("--scratch", type=pathlib.Path, default=ROOT / ".build-docsamples")
    arguments = parser.parse_args()
    files = [f.resolve() for f in arguments.files] or default_files()

    package = arguments.scratch / "DocSamples"
    # `.package(path: "../UndoKit")`, exactly as README's "Use UndoKit in your package" says:
    # SwiftPM names a path dependency after its folder, so the checkout is linked as UndoKit.
    link = arguments.scratch / "UndoKit"
    arguments.scratch.mkdir(parents=True, exist_ok=True)
    if link.is_symlink() or link.exists():
        link.unlink()
    link.symlink_to(ROOT, target_is_directory=True)
    if package.exists():
        shutil.rmtree(package / "Sources", ignore_errors=True)
    (package / "Sources").mkdir(parents=True, exist_ok=True)
    targets = []
    total_blocks = 0
    for path in files:
        blocks, parts = program(path)
        if blocks == 0:
            continue
        total_blocks += blocks
        name = target_name(path)
        imports = ["import Foundation", "import UndoKit"]
        if "TODOKit.docc" in str(path):
            imports.append("import TODOKit")
        directory = package / "Sources" / name
        directory.mkdir(parents=True, exist_ok=True)
        (directory / "main.swift").write_text("\n".join(imports + parts) + "\n", encoding="utf-8")
        targets.append((name, path))

    dependencies = '.product(name: "UndoKit", package: "UndoKit"), .product(name: "TODOKit", package: "UndoKit")'
    manifest = [
        "// swift-tools-version:6.2",
        "// Generated by Tests/DocSamples/check-doc-samples.py: one program per Markdown file.",
        "import PackageDescription",
        "let package = Package(",
        '    name: "DocSamples",',
        '    dependencies: [.package(path: "../UndoKit")],',
        "    targets: [",
    ]
    manifest += [f'        .executableTarget(name: "{name}", dependencies: [{dependencies}]),' for name, _ in targets]
    manifest += ["    ],",
                 # Top-level variables of a main.swift are main-actor isolated in Swift 6, which
                 # the declarations an article's snippets stand for (a class's properties, an
                 # app's model) are not; Swift 5 mode compiles the snippets as the reader's code
                 # would see them. UndoKit itself and its tests are compiled in Swift 6 mode.
                 "    swiftLanguageModes: [.v5]", ")"]
    (package / "Package.swift").write_text("\n".join(manifest) + "\n", encoding="utf-8")

    print(f"doc samples: {total_blocks} Swift blocks in {len(targets)} files", flush=True)
    build = subprocess.run(["swift", "build", "--package-path", str(package)], text=True,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if build.returncode != 0:
        errors = [l for l in build.stdout.splitlines() if "error:" in l]
        print("\n".join(errors or build.stdout.splitlines()[-40:]))
        print(f"doc samples: the programs do not build ({len(errors)} errors)")
        return 1
    bin_path = subprocess.run(["swift", "build", "--package-path", str(package), "--show-bin-path"],
                              text=True, capture_output=True, check=True).stdout.strip()
    failed = 0
    for name, path in targets:
        run = subprocess.run([os.path.join(bin_path, name)], text=True, capture_output=True, timeout=120)
        status = "ok" if run.returncode == 0 else f"FAILED (exit {run.returncode})"
        print(f"  {path.relative_to(ROOT)}: {status}")
        if run.returncode != 0:
            failed += 1
            print("\n".join("    " + l for l in (run.stdout + run.stderr).splitlines()[-20:]))
    if not arguments.files:
        if not build_readme_package(arguments.scratch):
            failed += 1
        targets.append(("MyApp", ROOT / "README.md"))
    print(f"{len(targets) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
