import Foundation

/// Runs the chosen workloads, each in a fresh child process by default so that its peak
/// RSS (VmHWM) belongs to that workload alone: the child is this same executable with
/// `--in-process --json --workload W`, and the parent collects its JSON lines.
enum Runner {
    /// Returns the process exit status: 0, or 1 when a workload failed its final-state check.
    static func run(_ options: Options) -> Int32 {
        if !options.json { Report.write(Report.tableHeader(options)) }
        for workload in options.workloads {
            let summaries: [PhaseSummary]
            do {
                summaries = options.inProcess
                    ? try runHere(workload, options: options)
                    : try runInChild(workload, options: options)
            } catch {
                Report.writeError("undokit-bench: \(workload) FAILED: \(error)")
                return 1
            }
            if options.json {
                summaries.forEach { Report.write(Report.jsonLine($0)) }
            } else {
                Report.write(Report.tableSection(workload))
                summaries.forEach { Report.write(Report.tableRow($0)) }
            }
        }
        return 0
    }

    private static func runHere(_ workload: String, options: Options) throws(BenchmarkFailure) -> [PhaseSummary] {
        var repetitions: [RepetitionResult] = []
        for repetition in 0..<options.repetitions {
            repetitions.append(try runOnce(workload, options: options, repetition: repetition))
        }
        return PhaseSummary.summarize(
            impl: workload == "floor" ? "floor" : options.api.impl, workload: workload,
            repetitions: repetitions, peakResidentKiB: Measurement.peakResidentKiB())
    }

    private static func runOnce(
        _ workload: String, options: Options, repetition: Int
    ) throws(BenchmarkFailure) -> RepetitionResult {
        let n = options.n
        switch workload {
        case "floor": return try FloorWorkload.floor(n: n)
        case "W1": return try GroupingWorkloads.w1(n: n, repetition: repetition, api: options.api)
        case "W2": return try GroupingWorkloads.w2(n: n, api: options.api)
        case "W3": return try GroupingWorkloads.w3(n: n, api: options.api)
        case "W4": return try GroupingWorkloads.w4(n: n, api: options.api)
        case "W5": return try GroupingWorkloads.w5(n: n, maxCalls: options.w5Calls, api: options.api)
        case "W6": return try GroupingWorkloads.w6(n: n, api: options.api)
        case "W7": return try NotificationWorkload.w7(n: n, repetition: repetition)
        case "W8": return try SnapshotWorkload.w8(
            items: options.w8Items, steps: options.w8Steps, operations: options.w8Operations, repetition: repetition)
        case "W9": return try TreeWorkload.w9(n: options.n)
        case "W10": return try NotingWorkload.w10(
            parts: options.w10Parts, steps: options.w10Steps, operations: options.w10Operations, repetition: repetition)
        case "W11": return try AsyncWorkload.w11(n: n)
        default: throw BenchmarkFailure(description: "unknown workload \(workload)")
        }
    }

    private static func runInChild(_ workload: String, options: Options) throws(BenchmarkFailure) -> [PhaseSummary] {
        guard let executable = Bundle.main.executableURL else {
            throw BenchmarkFailure(description: "cannot locate this executable to start a child; use --in-process")
        }
        let child = Process()
        child.executableURL = executable
        child.arguments = options.childArguments(for: workload)
        let output = Pipe()
        child.standardOutput = output
        do {
            try child.run()
        } catch {
            throw BenchmarkFailure(description: "cannot start \(executable.path): \(error)")
        }
        // Read before waiting: a child blocked on a full pipe would never exit.
        let data = output.fileHandleForReading.readDataToEndOfFile()
        child.waitUntilExit()
        guard child.terminationReason == .exit, child.terminationStatus == 0 else {
            throw BenchmarkFailure(description: "child process exited with status \(child.terminationStatus)")
        }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        let summaries = lines.compactMap(Report.parse(jsonLine:))
        guard summaries.count == lines.count, !summaries.isEmpty else {
            throw BenchmarkFailure(description: "unreadable output from the child process:\n\(lines.joined(separator: "\n"))")
        }
        return summaries
    }
}
