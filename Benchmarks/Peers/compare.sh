#!/usr/bin/env bash
# UndoKit side by side with Qt 5's QUndoStack and GNUstep's NSUndoManager, in one run.
#
#   Benchmarks/Peers/compare.sh [N]          (default N = 1000000)
#
# Installs the peers' Debian packages if missing, builds the peers and undokit-bench
# (release), runs workloads W1–W5 alternately on UndoKit (closures, commands, commands that
# retain their model), Qt and GNUstep, plus UndoKit's W6–W10 and the floor, then prints one
# table and writes an SVG chart of W1 against N. Every cell times at least 10^5 operations at
# the default N (see Benchmarks/README.md, "What each workload measures").
#
# Environment knobs (defaults in brackets):
#   REPS [3]              processes per implementation and workload; the table shows the median
#   GNUSTEP_W5_CALLS [10] removeAllActionsWithTarget: calls timed for GNUstep (of 1,000); each
#                         costs ~0.4 s with 10^6 stored actions, so timing all would take minutes
#   UNDOKIT_W5_CALLS []   the same cap for UndoKit (empty: all 1,000)
#   SWEEP [1]             0 skips the chart's N sweep
#   WORKLOADS [floor W1 … W10] the workloads to run, e.g. "W1 W4" for a focused comparison
#   IMPLS [undokit undokit-commands undokit-commands-retained qt gnustep]  who races W1–W5
#   TIMEOUT [900]         seconds one process may take; a process that runs longer is killed
#                         and its cells read "timeout" (so one pathological case cannot hang
#                         the comparison), any other failure stops the comparison
#   SCRATCH [.build-bench] SwiftPM scratch path, so this build does not contend for .build's lock
#
# Output in Benchmarks/Peers/build/: results.jsonl (every line measured), compare.md (the
# table) and w1-scaling.svg (the chart).
set -euo pipefail

N=${1:-1000000}
REPS=${REPS:-3}
GNUSTEP_W5_CALLS=${GNUSTEP_W5_CALLS:-10}
UNDOKIT_W5_CALLS=${UNDOKIT_W5_CALLS:-}
SWEEP=${SWEEP:-1}
TIMEOUT=${TIMEOUT:-900}

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=$HERE/build
SCRATCH=${SCRATCH:-$ROOT/.build-bench}
mkdir -p "$BUILD"

log() { printf '%s\n' "compare.sh: $*" >&2; }

# --- 1. Dependencies --------------------------------------------------------------------
# The peers' toolkits come from Debian; python3 renders the table and the chart.
packages=(make gcc g++ gobjc gnustep-make libgnustep-base-dev qtbase5-dev pkg-config python3)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO=sudo
    log "installing ${missing[*]}"
    $SUDO apt-get update
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
fi

# --- 2. Build ---------------------------------------------------------------------------
log "building the peers"
make -C "$HERE" --no-print-directory >&2
log "building undokit-bench (release)"
(cd "$ROOT" && swift build -c release --scratch-path "$SCRATCH" --product undokit-bench >&2)
UNDOKIT=$(cd "$ROOT" && swift build -c release --scratch-path "$SCRATCH" --show-bin-path)/undokit-bench
QT=$BUILD/qt-bench
GNUSTEP=$BUILD/gnustep-bench

# --- 3. Run -----------------------------------------------------------------------------
RESULTS=$BUILD/results.jsonl
: > "$RESULTS"

# Every measurement is its own process, so peak RSS belongs to one workload and one
# implementation, and --repetitions 1 inside it: the repetitions are the processes, and they
# alternate between implementations so that a noisy moment on this shared machine hits all
# three rather than one.
run() { # impl workload n [extra args...]
    local impl=$1 workload=$2 n=$3
    shift 3
    local cmd
    case $impl in
        undokit) cmd=("$UNDOKIT" --in-process --json --repetitions 1) ;;
        undokit-commands) cmd=("$UNDOKIT" --in-process --json --repetitions 1 --api commands) ;;
        undokit-commands-retained) cmd=("$UNDOKIT" --in-process --json --repetitions 1 --api commands-retained) ;;
        qt) cmd=("$QT" --repetitions 1) ;;
        gnustep) cmd=("$GNUSTEP" --repetitions 1) ;;
    esac
    log "$impl $workload n=$n $*"
    local status=0
    timeout "$TIMEOUT" "${cmd[@]}" --workload "$workload" --n "$n" "$@" >> "$RESULTS" || status=$?
    if [ "$status" = 124 ]; then
        log "$impl $workload timed out after ${TIMEOUT}s"
        printf '{"impl":"%s","workload":"%s","timeout_s":%s}\n' "$impl" "$workload" "$TIMEOUT" >> "$RESULTS"
    elif [ "$status" != 0 ]; then
        # A failed final-state check: wrong results must not turn into a table.
        log "$impl $workload FAILED (exit $status)"
        exit 1
    fi
}

w5_args() { # impl
    case $1 in
        gnustep) echo "--w5-calls $GNUSTEP_W5_CALLS" ;;
        undokit | undokit-commands | undokit-commands-retained)
            [ -n "$UNDOKIT_W5_CALLS" ] && echo "--w5-calls $UNDOKIT_W5_CALLS" ;;
    esac
    return 0
}

# UndoKit three times: its closure API (Apple's registerUndo(withTarget:handler:)), its command
# API (perform(_:on:) with an UndoableCommand, --api commands, the model held weakly) and the
# opt-in that keeps the model alive (perform(_:retaining:), --api commands-retained), each
# racing on its own terms.
read -r -a impls <<< "${IMPLS:-undokit undokit-commands undokit-commands-retained qt gnustep}"
read -r -a workloads <<< "${WORKLOADS:-floor W1 W2 W3 W4 W5 W6 W7 W8 W9 W10}"
for ((rep = 0; rep < REPS; rep++)); do
    # Rotate the order each repetition so no implementation always runs first.
    order=("${impls[@]:rep % ${#impls[@]}}" "${impls[@]:0:rep % ${#impls[@]}}")
    for w in "${workloads[@]}"; do
        case $w in
            W1 | W2 | W3 | W4 | W5)
                for impl in "${order[@]}"; do
                    extra=()
                    [ "$w" = W5 ] && read -r -a extra <<< "$(w5_args "$impl")"
                    run "$impl" "$w" "$N" "${extra[@]}"
                done ;;
            *) run undokit "$w" "$N" ;;
        esac
    done
done

# The chart's sweep: W1 at N = 10^3 … N on half-decade steps (N itself comes from the runs
# above). Small N are short and noisy, so each point is the median of 5 in-process runs.
SWEEP_RESULTS=$BUILD/sweep.jsonl
: > "$SWEEP_RESULTS"
if [ "$SWEEP" != 0 ]; then
    for s in 1000 3162 10000 31623 100000 316228; do
        [ "$s" -ge "$N" ] && break
        for impl in "${order[@]}"; do
            case $impl in
                undokit) cmd=("$UNDOKIT" --in-process --json) ;;
                undokit-commands) cmd=("$UNDOKIT" --in-process --json --api commands) ;;
                undokit-commands-retained) cmd=("$UNDOKIT" --in-process --json --api commands-retained) ;;
                qt) cmd=("$QT") ;;
                gnustep) cmd=("$GNUSTEP") ;;
            esac
            log "sweep $impl W1 n=$s"
            timeout "$TIMEOUT" "${cmd[@]}" --workload W1 --n "$s" --repetitions 5 >> "$SWEEP_RESULTS" \
                || { log "sweep $impl W1 n=$s failed or timed out"; exit 1; }
        done
    done
fi

# --- 4. Report --------------------------------------------------------------------------
# Numbers belong to a version of the core: name the commit, and say if Sources/ had edits on top.
commit=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo "no commit")
[ -n "$(git -C "$ROOT" status --porcelain -- Sources 2>/dev/null)" ] && commit="$commit + uncommitted changes in Sources/"
machine="UndoKit $commit; $(nproc) cores, $(uname -m), $(. /etc/os-release && echo "$PRETTY_NAME"); $(swift --version 2>/dev/null | head -1); g++ $(g++ -dumpfullversion); Qt $(pkg-config --modversion Qt5Widgets); GNUstep base $(dpkg-query -W -f='${Version}' libgnustep-base-dev)"
python3 "$HERE/report.py" \
    --results "$RESULTS" --sweep "$SWEEP_RESULTS" --n "$N" --reps "$REPS" \
    --machine "$machine" --gnustep-w5-calls "$GNUSTEP_W5_CALLS" \
    --markdown "$BUILD/compare.md" --svg "$BUILD/w1-scaling.svg"
if [ "$SWEEP" != 0 ]; then
    log "table: $BUILD/compare.md; chart: $BUILD/w1-scaling.svg; raw: $RESULTS"
else
    log "table: $BUILD/compare.md (SWEEP=0: no chart); raw: $RESULTS"
fi
