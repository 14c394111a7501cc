#!/usr/bin/env python3
"""Turns compare.sh's JSON lines into one comparison table (Markdown) and an SVG chart.

Standard library only, so the comparison needs nothing beyond python3 to render.
Each input line is one phase of one process:
  {"impl":"qt","workload":"W1","phase":"register","n":1000000,"ns_per_op":123.4,"peak_rss_kb":5678, ...}
Several processes of the same (impl, workload, phase) are folded into their median.
"""
import argparse
import datetime
import json
import math
import statistics
from collections import OrderedDict, defaultdict

IMPLS = ["undokit", "undokit-commands", "undokit-commands-retained", "qt", "gnustep"]
NAMES = {
    "undokit": "UndoKit closures", "undokit-commands": "UndoKit commands",
    "undokit-commands-retained": "UndoKit commands retained", "qt": "Qt 5", "gnustep": "GNUstep",
    "floor": "floor",
}
COLORS = {"undokit": "#d1495b", "undokit-commands": "#edae49", "undokit-commands-retained": "#8f5bb0",
          "qt": "#2e86ab", "gnustep": "#5b8e3e"}
# Every reported cell must time at least this many operations (issue 25).
MIN_OPERATIONS = 100_000


def load(path):
    rows = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line:
                rows.append(json.loads(line))
    return rows


def timeouts(rows):
    """(impl, workload) pairs whose process compare.sh killed for running too long."""
    return {(r["impl"], r["workload"]) for r in rows if "timeout_s" in r}


def fold(rows):
    """(impl, workload, phase) -> summary dict, in first-seen order."""
    groups = OrderedDict()
    for r in rows:
        if "timeout_s" in r:
            continue
        key = (r["impl"], r["workload"], r["phase"])
        g = groups.setdefault(key, {"ns": [], "rss": [], "n": r["n"], "extras": defaultdict(list), "notes": set()})
        g["ns"].append(r["ns_per_op"])
        if r.get("peak_rss_kb") is not None:
            g["rss"].append(r["peak_rss_kb"])
        g["n"] = r["n"]
        for k, v in r.items():
            if k in ("impl", "workload", "phase", "n", "ns_per_op", "peak_rss_kb", "min_ns_per_op", "repetitions"):
                continue
            if k == "note":
                g["notes"].add(v)
            elif isinstance(v, (int, float)):
                g["extras"][k].append(v)
    out = OrderedDict()
    for key, g in groups.items():
        out[key] = {
            "ns": statistics.median(g["ns"]),
            "runs": len(g["ns"]),
            "spread": (min(g["ns"]), max(g["ns"])),
            "rss_kb": statistics.median(g["rss"]) if g["rss"] else None,
            "n": g["n"],
            "extras": {k: statistics.median(v) for k, v in g["extras"].items()},
            "notes": sorted(g["notes"]),
        }
    return out


def fmt_ns(v):
    if v is None:
        return "—"
    if v < 100:
        return f"{v:.1f}"
    return f"{v:,.0f}"


def fmt_ratio(a, b):
    if a is None or b is None or b == 0:
        return "—"
    r = a / b
    return f"{r:.2f}×" if r < 10 else f"{r:,.0f}×"


def fmt_mib(kb):
    return "—" if kb is None else f"{kb / 1024:,.1f}"


def table(summary, timed_out, args):
    lines = []
    get = lambda impl, w, p: summary.get((impl, w, p))
    ns = lambda impl, w, p: (get(impl, w, p) or {}).get("ns")

    def cell(impl, w, p):
        v = ns(impl, w, p)
        if v is None and (impl, w) in timed_out:
            return "timeout"
        return fmt_ns(v)

    lines.append(
        f"Measured {datetime.date.today().isoformat()} on {args.machine}. N = {args.n:,}; "
        f"each cell is the median of {args.reps} processes run alternately (one workload per process)."
    )
    lines.append("")
    lines.append(
        "| workload | phase | n | UndoKit closures ns | UndoKit commands ns | UndoKit commands retained ns "
        "| Qt ns | GNUstep ns | closures/Qt | commands/Qt | retained/Qt | closures/GNUstep "
        "| peak RSS MiB closures / commands / retained / Qt / GNUstep | notes |"
    )
    lines.append("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|")

    # Rows in the order UndoKit reported them, then any phase only a peer reported.
    order = []
    for (impl, w, p) in summary:
        if (w, p) not in order and w != "floor":
            order.append((w, p))
    order.sort(key=lambda wp: int(wp[0][1:]) if wp[0][1:].isdigit() else 99)

    floor_phases = {
        "register": "allocate closure + append",
        "undo": "pop + call",
        "weak_call": "load a weak reference + call: what spec H3 adds per step",
        "command_undo": "move a command step to the other stack through its weak model: "
                        "the least any layout's command undo does",
        "command_redo": "the same, back",
    }
    for p, what in floor_phases.items():
        f = get("floor", "floor", p)
        if f:
            lines.append(
                f"| floor | {p} | {f['n']:,} | {fmt_ns(f['ns'])} | — | — | — | — | — | — | — | — "
                f"| {fmt_mib(f['rss_kb'])} / — / — / — / — "
                f"| Swift floor ({what}), not UndoKit |"
            )

    for (w, p) in order:
        cells = {impl: get(impl, w, p) for impl in IMPLS}
        n = next((c["n"] for c in cells.values() if c), 0)
        notes = []
        for impl in IMPLS:
            c = cells[impl]
            if not c:
                continue
            for k, v in sorted(c["extras"].items()):
                notes.append(f"{NAMES[impl]} {k.replace('_', ' ')} {v:,.0f}" if v >= 100 or v == int(v) else f"{NAMES[impl]} {k.replace('_', ' ')} {v:.1f}")
            for note in c["notes"]:
                notes.append(f"{NAMES[impl]}: {note}")
        if w == "W5" and p.startswith("remove") and not cells["qt"]:
            notes.append("Qt: QUndoStack has no per-target removal")
        # What each implementation's time was divided by: one number when they agree, else
        # each one (W5's remove_per_stored sums the stored actions of the calls each timed).
        ns_by_impl = [(impl, cells[impl]["n"]) for impl in IMPLS if cells[impl]]
        if len({v for _, v in ns_by_impl}) <= 1:
            n_cell = f"{n:,}"
        else:
            n_cell = "; ".join(f"{NAMES[impl]} {v:,}" for impl, v in ns_by_impl)
        rss = " / ".join(fmt_mib(cells[i]["rss_kb"]) if cells[i] else "—" for i in IMPLS)
        lines.append(
            f"| {w} | {p} | {n_cell} | {cell('undokit', w, p)} | {cell('undokit-commands', w, p)} "
            f"| {cell('undokit-commands-retained', w, p)} | {cell('qt', w, p)} | {cell('gnustep', w, p)} "
            f"| {fmt_ratio(ns('undokit', w, p), ns('qt', w, p))} | {fmt_ratio(ns('undokit-commands', w, p), ns('qt', w, p))} "
            f"| {fmt_ratio(ns('undokit-commands-retained', w, p), ns('qt', w, p))} "
            f"| {fmt_ratio(ns('undokit', w, p), ns('gnustep', w, p))} "
            f"| {rss} | {'; '.join(notes)} |"
        )

    lines.append("")
    lines.append("Targets (notifications off), checked against this run: issue 25's first, then those of issues 4 and 11:")
    lines.append("")
    lines.append("| target | measured | met |")
    lines.append("|---|---|---|")

    def target(text, measured, ok):
        lines.append(f"| {text} | {measured} | {'yes' if ok else ('**no**' if ok is not None else '—')} |")

    small = sorted(f"{NAMES.get(impl, impl)} {w} {p} ({s['n']:,})" for (impl, w, p), s in summary.items()
                   if s["n"] < MIN_OPERATIONS)
    listed = ", ".join(small[:8]) + (f" and {len(small) - 8} more" if len(small) > 8 else "")
    target(f"every cell times ≥ {MIN_OPERATIONS:,} operations (issue 25)",
           "all do" if not small else f"{len(small)} below: {listed}", not small)
    for impl in ["undokit-commands", "undokit-commands-retained"]:
        for w in ["W1", "W4"]:
            for p in ["undo", "redo"]:
                u, q = ns(impl, w, p), ns("qt", w, p)
                if u is not None and q is not None:
                    target(f"{NAMES[impl]} {w} {p} ≤ 1.25× Qt (issue 25)",
                           f"{fmt_ns(u)} vs {fmt_ns(q)} ns ({fmt_ratio(u, q)})", u <= 1.25 * q)

    for w in ["W1", "W2", "W3", "W4"]:
        for p in ["register", "undo", "redo"]:
            u, q = ns("undokit-commands", w, p), ns("qt", w, p)
            if u is not None and q is not None:
                target(f"commands {w} {p}: faster than Qt", f"{fmt_ns(u)} vs {fmt_ns(q)} ns ({fmt_ratio(u, q)})", u < q)
    # Not targets: whether a command layout could beat Qt at all, given weak targets.
    for p in ["undo", "redo"]:
        f, q = ns("floor", "floor", f"command_{p}"), ns("qt", "W1", p)
        if f is not None and q is not None:
            target(f"room for Apple's bookkeeping in a W1 command {p} faster than Qt's (Qt W1 {p} − floor command_{p}; reported, no target)",
                   f"{fmt_ns(q)} − {fmt_ns(f)} = {fmt_ns(q - f)} ns", None)
    for w in ["W1", "W2", "W3", "W4"]:
        u, q = ns("undokit", w, "register"), ns("qt", w, "register")
        if u is not None and q is not None:
            target(f"closures {w} register: faster than Qt", f"{fmt_ns(u)} vs {fmt_ns(q)} ns ({fmt_ratio(u, q)})", u < q)
    fr, fu = ns("floor", "floor", "register"), ns("floor", "floor", "undo")
    if fr is not None and fu is not None:
        floor = fr + fu
        for w in ["W1", "W2", "W4"]:
            for p in ["undo", "redo"]:
                u = ns("undokit", w, p)
                if u is not None:
                    target(f"closures {w} {p}: within 1.25× the Apple-model floor (floor register + undo)",
                           f"{fmt_ns(u)} vs {fmt_ns(floor)} ns ({fmt_ratio(u, floor)})", u <= 1.25 * floor)
    u = ns("undokit", "W5", "remove_per_stored")
    if u is not None:
        target("removeAllActions(withTarget:) ≤ ~10 ns per stored action", f"{fmt_ns(u)} ns", u <= 10)
    w4, w1 = ns("undokit", "W4", "register"), ns("undokit", "W1", "register")
    if w4 is not None and w1 is not None:
        target("levelsOfUndo trimming O(1) amortized (W4 register vs W1 register)",
               f"{fmt_ns(w4)} vs {fmt_ns(w1)} ns per group ({fmt_ratio(w4, w1)})", w4 <= 2 * w1)
    b = (get("undokit", "W1", "register") or {}).get("extras", {}).get("bytes_per_action")
    if b is not None:
        target("closures: W1 action ≤ 48 bytes (RSS growth / N)", f"{b:.1f} B", b <= 48)
    b = (get("undokit-commands", "W1", "register") or {}).get("extras", {}).get("bytes_per_action")
    if b is not None:
        target("commands: W1 bytes per action (reported, no target)", f"{b:.1f} B", None)

    on, off = ns("undokit", "W7", "register_on"), ns("undokit", "W7", "register_off")
    if on is not None and off is not None:
        lines.append("")
        lines.append(
            "W7, notifications to NotificationCenter.default (no observers) vs off, ns per action: "
            + ", ".join(
                f"{p} {fmt_ns(ns('undokit', 'W7', p + '_on'))} vs {fmt_ns(ns('undokit', 'W7', p + '_off'))} "
                f"({fmt_ratio(ns('undokit', 'W7', p + '_on'), ns('undokit', 'W7', p + '_off'))})"
                for p in ["register", "undo", "redo"]
            )
            + "."
        )
    return "\n".join(lines)


def svg_chart(summary, sweep, args):
    """Three log-log panels (register, undo, redo): ns per action against N, one line per impl."""
    points = defaultdict(dict)  # (impl, phase) -> {n: ns}
    by_n = defaultdict(list)
    for r in sweep:
        if r["workload"] == "W1":
            by_n[(r["impl"], r["phase"], r["n"])].append(r["ns_per_op"])
    for (impl, p, n), values in by_n.items():
        points[(impl, p)][n] = statistics.median(values)
    for (impl, w, p), s in summary.items():
        if w == "W1" and impl in IMPLS:
            points[(impl, p)][s["n"]] = s["ns"]

    phases = ["register", "undo", "redo"]
    all_ns = [v for d in points.values() for v in d.values() if v > 0]
    all_n = [n for d in points.values() for n in d]
    if not all_ns:
        return None
    ymin = 10 ** math.floor(math.log10(min(all_ns)))
    ymax = 10 ** math.ceil(math.log10(max(all_ns)))
    xmin = 10 ** math.floor(math.log10(min(all_n)))
    xmax = 10 ** math.ceil(math.log10(max(all_n)))

    pw, ph, ml, mt, gap = 300, 260, 70, 60, 60
    width = ml + 3 * pw + 2 * gap + 30
    # The machine description is long: wrap it at its "; " separators to the chart's width.
    footer_lines, current = [], ""
    for part in (args.machine + "; " + datetime.date.today().isoformat()).split("; "):
        candidate = part if not current else current + "; " + part
        if len(candidate) * 6.6 > width - ml - 20 and current:
            footer_lines.append(current + ";")
            current = part
        else:
            current = candidate
    footer_lines.append(current)
    height = mt + ph + 100 + 16 * len(footer_lines)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{width / 2}" y="22" text-anchor="middle" font-size="15" font-weight="bold">'
        f"W1: ns per action as the history grows (log–log; lower is better)</text>",
    ]

    def sx(n, x0):
        return x0 + (math.log10(n) - math.log10(xmin)) / (math.log10(xmax) - math.log10(xmin)) * pw

    def sy(v):
        return mt + ph - (math.log10(v) - math.log10(ymin)) / (math.log10(ymax) - math.log10(ymin)) * ph

    for i, phase in enumerate(phases):
        x0 = ml + i * (pw + gap)
        out.append(f'<text x="{x0 + pw / 2}" y="{mt - 10}" text-anchor="middle" font-weight="bold">{phase}</text>')
        out.append(f'<rect x="{x0}" y="{mt}" width="{pw}" height="{ph}" fill="none" stroke="#444"/>')
        e = math.log10(ymin)
        while e <= math.log10(ymax) + 1e-9:
            y = sy(10 ** e)
            out.append(f'<line x1="{x0}" y1="{y:.1f}" x2="{x0 + pw}" y2="{y:.1f}" stroke="#ddd"/>')
            if i == 0:
                out.append(f'<text x="{x0 - 6}" y="{y + 4:.1f}" text-anchor="end">{10 ** e:,.0f}</text>')
            e += 1
        e = math.log10(xmin)
        while e <= math.log10(xmax) + 1e-9:
            x = sx(10 ** e, x0)
            out.append(f'<line x1="{x:.1f}" y1="{mt}" x2="{x:.1f}" y2="{mt + ph}" stroke="#eee"/>')
            out.append(f'<text x="{x:.1f}" y="{mt + ph + 16}" text-anchor="middle">10<tspan dy="-6" font-size="9">{int(round(e))}</tspan></text>')
            e += 1
        out.append(f'<text x="{x0 + pw / 2}" y="{mt + ph + 34}" text-anchor="middle">N (actions)</text>')
        for impl in IMPLS:
            d = points.get((impl, phase), {})
            if not d:
                continue
            coords = " ".join(f"{sx(n, x0):.1f},{sy(v):.1f}" for n, v in sorted(d.items()) if v > 0)
            out.append(f'<polyline points="{coords}" fill="none" stroke="{COLORS[impl]}" stroke-width="2"/>')
            for n, v in sorted(d.items()):
                if v > 0:
                    out.append(f'<circle cx="{sx(n, x0):.1f}" cy="{sy(v):.1f}" r="3" fill="{COLORS[impl]}"/>')
    out.append(
        f'<text transform="translate(16 {mt + ph / 2}) rotate(-90)" text-anchor="middle">ns per action</text>'
    )
    lx = ml
    ly = mt + ph + 62
    for impl in IMPLS:
        out.append(f'<line x1="{lx}" y1="{ly}" x2="{lx + 24}" y2="{ly}" stroke="{COLORS[impl]}" stroke-width="3"/>')
        out.append(f'<text x="{lx + 30}" y="{ly + 4}">{NAMES[impl]}</text>')
        lx += 200
    for k, line in enumerate(footer_lines):
        out.append(f'<text x="{ml}" y="{ly + 28 + 16 * k}" fill="#555">{escape(line)}</text>')
    out.append("</svg>")
    return "\n".join(out)


def escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--results", required=True)
    ap.add_argument("--sweep")
    ap.add_argument("--n", type=int, required=True)
    ap.add_argument("--reps", type=int, required=True)
    ap.add_argument("--machine", default="")
    ap.add_argument("--gnustep-w5-calls", default="")
    ap.add_argument("--markdown")
    ap.add_argument("--svg")
    args = ap.parse_args()

    rows = load(args.results)
    summary = fold(rows)
    sweep = load(args.sweep) if args.sweep else []
    text = table(summary, timeouts(rows), args)
    if timeouts(rows):
        text += "\n\nKilled after the time limit (cells read \"timeout\"): " + ", ".join(
            f"{NAMES[i]} {w}" for i, w in sorted(timeouts(rows)))
    print(text)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text + "\n")
    # No sweep (SWEEP=0): no chart, rather than a chart without an axis.
    if args.svg and sweep:
        svg = svg_chart(summary, sweep, args)
        if svg:
            with open(args.svg, "w") as f:
                f.write(svg + "\n")


if __name__ == "__main__":
    main()
