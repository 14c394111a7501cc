import Foundation

/// Output: JSON lines (the format the peers print too) or a human-readable table.
enum Report {
    /// What each workload measures, for the table's section headings.
    static let descriptions: [String: String] = [
        "floor": "floor: allocate a closure and append it / pop it and call it / call through a weak reference / move a command step between two stacks through its weak model (no UndoKit)",
        "W1": "W1: N groups of one action; undo all; redo all",
        "W2": "W2: one group of N actions; undo it; redo it",
        "W3": "W3: N/10 groups nested 10 deep, one action per level; undo all; redo all",
        "W4": "W4: levelsOfUndo = 100; N/100 cycles: register 100 groups past the limit, undo the 100 kept, redo them",
        "W5": "W5: N groups over 1,000 targets; undo half; removeAllActions(withTarget:) per target (per stored action)",
        "W6": "W6: groupsByEvent, N events of one registration + tick; undo all; redo all",
        "W7": "W7: W1 with notifications to NotificationCenter.default (on) vs nil (off)",
        "W8": "W8: 10,000-item struct model, each step registers the old whole model; cycles of steps and undos",
        "W9": "W9: history tree: a branch point off/on; 1,000 undos+redos vs two go(to:) jumps",
        "W10": "W10: noteChanges(to:origin:) over a history of S and S/10 steps declaring parts; undo under .run/.refuse/.skip; refused undos; .skip dropping stale steps",
        "W11": "W11: N steps of one async action: the action called directly vs undoAsync()/redoAsync() of its step (overhead_ns = the difference); undo() of a sync step for scale",
    ]

    /// Writes straight to the file descriptor so output interleaves correctly with child
    /// processes' and reaches a pipe line by line.
    static func write(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    static func writeError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    // MARK: JSON lines

    /// The six keys every implementation prints come first and in a fixed order, so the
    /// lines match the peers' byte for byte up to the optional keys.
    static func jsonLine(_ summary: PhaseSummary) -> String {
        var fields = [
            "\"impl\":\"\(summary.impl)\"",
            "\"workload\":\"\(summary.workload)\"",
            "\"phase\":\"\(summary.phase)\"",
            "\"n\":\(summary.operations)",
            "\"ns_per_op\":\(decimal(summary.medianNanoseconds))",
            "\"peak_rss_kb\":\(summary.peakResidentKiB.map(String.init) ?? "null")",
            "\"min_ns_per_op\":\(decimal(summary.minimumNanoseconds))",
            "\"repetitions\":\(summary.repetitions)",
        ]
        fields += summary.extras.map { "\"\($0.0)\":\(decimal($0.1))" }
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// Reads back a line written by `jsonLine`, as the parent process does with its children's.
    static func parse(jsonLine line: String) -> PhaseSummary? {
        guard let data = line.data(using: .utf8),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let impl = object["impl"] as? String, let workload = object["workload"] as? String,
              let phase = object["phase"] as? String, let operations = number(object["n"]),
              let median = number(object["ns_per_op"])
        else { return nil }
        let known: Set = ["impl", "workload", "phase", "n", "ns_per_op", "peak_rss_kb", "min_ns_per_op", "repetitions"]
        let extras = object.compactMap { key, value -> (String, Double)? in
            guard !known.contains(key), let number = number(value) else { return nil }
            return (key, number)
        }.sorted { $0.0 < $1.0 }
        return PhaseSummary(
            impl: impl, workload: workload, phase: phase, operations: Int(operations),
            medianNanoseconds: median, minimumNanoseconds: number(object["min_ns_per_op"]) ?? median,
            repetitions: number(object["repetitions"]).map { Int($0) } ?? 1,
            peakResidentKiB: number(object["peak_rss_kb"]).map { Int($0) }, extras: extras)
    }

    private static func number(_ value: Any?) -> Double? {
        switch value {
        case let number as NSNumber: number.doubleValue
        case let number as Double: number
        case let number as Int: Double(number)
        default: nil
        }
    }

    private static func decimal(_ value: Double) -> String {
        String(format: "%.1f", value)
    }

    // MARK: Table

    static func tableHeader(_ options: Options) -> String {
        let mode = options.inProcess ? "all workloads in one process" : "one process per workload"
        return """
            undokit-bench: N = \(grouped(options.n)), \(options.repetitions) repetition(s), \(mode), \(options.api.rawValue) API
            notifications off except in W7; explicit groups except in W6; ns per operation, median (min)

            \(pad("phase", 22)) \(pad("n", 11, right: true)) \(pad("ns/op", 12, right: true)) \(pad("(min)", 12, right: true)) \(pad("peak RSS", 11, right: true))  notes
            """
    }

    static func tableSection(_ workload: String) -> String {
        "\n" + (descriptions[workload] ?? workload)
    }

    static func tableRow(_ summary: PhaseSummary) -> String {
        let rss = summary.peakResidentKiB.map { String(format: "%.1f MiB", Double($0) / 1024) } ?? "n/a"
        let notes = summary.extras.map { "\($0.0) = \(formatted($0.1))" }.joined(separator: ", ")
        return "\(pad(summary.phase, 22)) \(pad(grouped(summary.operations), 11, right: true)) "
            + "\(pad(formatted(summary.medianNanoseconds), 12, right: true)) "
            + "\(pad("(" + formatted(summary.minimumNanoseconds) + ")", 12, right: true)) "
            + "\(pad(rss, 11, right: true))  \(notes)"
    }

    private static func formatted(_ value: Double) -> String {
        value < 1_000 ? String(format: "%.1f", value) : grouped(Int(value.rounded()))
    }

    private static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return value < 0 ? "-" + out : out
    }

    private static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - text.count))
        return right ? fill + text : text + fill
    }
}
