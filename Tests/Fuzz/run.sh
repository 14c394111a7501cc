#!/usr/bin/env bash
# Builds every libFuzzer harness in Tests/Fuzz and runs each for SECONDS (default 30) on a copy
# of its seed corpus; fails if any harness finds a crash, a trap or a sanitizer report.
#
#   Tests/Fuzz/run.sh [SECONDS]
#
# A harness is a Tests/Fuzz/<Name>.swift file defining LLVMFuzzerTestOneInput with @_cdecl; its
# seed corpus is Tests/Fuzz/Corpus/<Name>/. Each is compiled with the TODOKit sources in one
# module (so it can reach internal functions), linked to UndoKit built as a library with
# -enable-testing (so a harness may `@testable import UndoKit`) and to the system's SQLite and
# libpq (the CSQLite and CLibPQ module maps, as SwiftPM's system library targets), with
# -sanitize=fuzzer,address.
# Everything is built in .build-fuzz/ (git-ignored): the binaries, the working corpora (which
# grow as the fuzzer finds new inputs) and, under artifacts/<Name>/, any crashing input, to
# replay with `.build-fuzz/<Name> .build-fuzz/artifacts/<Name>/crash-…`.
#
# Environment: FUZZ_SANITIZERS (default fuzzer,address), FUZZ_JOBS extra libFuzzer flags.
set -euo pipefail
seconds="${1:-30}"
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="$root/.build-fuzz"
sanitizers="${FUZZ_SANITIZERS:-fuzzer,address}"
# The Swift runtime's backtracer would otherwise take over libFuzzer's crash handling and
# make a crash take half a minute to report.
export SWIFT_BACKTRACE=enable=no
mkdir -p "$build/modules"
cd "$root"

flags=(-O -g -parse-as-library -swift-version 6 -sanitize="$sanitizers")

# The sources live in concept folders; list them all, in a stable order.
mapfile -t undokit_sources < <(find Sources/UndoKit -name '*.swift' | sort)
mapfile -t todokit_sources < <(find Sources/TODOKit -name '*.swift' | sort)

echo "fuzz: building UndoKit" >&2
swiftc "${flags[@]}" -enable-testing -module-name UndoKit \
    -emit-library -static -emit-module -emit-module-path "$build/modules/UndoKit.swiftmodule" \
    -o "$build/modules/libUndoKit.a" "${undokit_sources[@]}"

# TODOKit also links libpq (the CLibPQ module map); its header's directory, for clang.
libpq_cflags=()
for flag in $(pkg-config --cflags libpq 2>/dev/null || echo -I/usr/include/postgresql); do
    libpq_cflags+=(-Xcc "$flag")
done

harnesses=(Tests/Fuzz/*.swift)
failed=()
for harness in "${harnesses[@]}"; do
    name="$(basename "$harness" .swift)"
    echo "fuzz: building $name" >&2
    swiftc "${flags[@]}" -module-name "${name}Fuzz" -I "$build/modules" -L "$build/modules" -lUndoKit \
        -I Sources/CSQLite $(pkg-config --libs sqlite3 2>/dev/null || echo -lsqlite3) \
        -I Sources/CLibPQ "${libpq_cflags[@]}" $(pkg-config --libs libpq 2>/dev/null || echo -lpq) \
        "${todokit_sources[@]}" "$harness" -o "$build/$name" 2> >(grep -v "Cannot export local symbol '__asan" >&2)

    corpus="$build/corpus/$name"
    artifacts="$build/artifacts/$name"
    mkdir -p "$corpus" "$artifacts"
    if [ -d "Tests/Fuzz/Corpus/$name" ]; then
        cp -R "Tests/Fuzz/Corpus/$name/." "$corpus/"
    fi
    log="$build/$name.log"
    echo "fuzz: running $name for ${seconds}s" >&2
    # shellcheck disable=SC2086
    if "$build/$name" -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=4096 \
        -print_final_stats=1 -artifact_prefix="$artifacts/" ${FUZZ_JOBS:-} "$corpus" > "$log" 2>&1; then
        runs="$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')"
        echo "fuzz: $name passed: $runs executions in ${seconds}s, no crash" >&2
    else
        echo "fuzz: $name FAILED; the end of its log ($log):" >&2
        tail -n 40 "$log" >&2
        failed+=("$name")
    fi
done

if [ "${#failed[@]}" -gt 0 ]; then
    echo "fuzz: crashes in: ${failed[*]} (inputs in $build/artifacts/)" >&2
    exit 1
fi
echo "fuzz: ${#harnesses[@]} harnesses, no crash" >&2
