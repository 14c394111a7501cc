import Foundation

/// The clock and the memory readings every workload uses.
enum Measurement {
    /// Monotonic nanoseconds.
    @inline(__always)
    static func now() -> UInt64 {
        DispatchTime.now().uptimeNanoseconds
    }

    /// The process's peak resident set size in KiB (VmHWM), or nil where /proc is unavailable.
    static func peakResidentKiB() -> Int? {
        statusField("VmHWM")
    }

    /// The process's current resident set size in KiB (VmRSS), or nil where /proc is unavailable.
    static func residentKiB() -> Int? {
        statusField("VmRSS")
    }

    private static func statusField(_ key: String) -> Int? {
        #if os(Linux)
        // Read with the C library rather than Foundation: this runs between timed phases of
        // a memory measurement, and Foundation's file APIs allocate far more than fopen.
        guard let file = fopen("/proc/self/status", "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 256)
        let prefix = key + ":"
        while fgets(&buffer, Int32(buffer.count), file) != nil {
            let line = String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if line.hasPrefix(prefix) {
                let digits = line.dropFirst(prefix.count).filter(\.isNumber)
                return Int(digits)
            }
        }
        return nil
        #else
        return nil
        #endif
    }
}

/// A wrong final state: the run stops and reports it instead of printing a timing.
struct BenchmarkFailure: Error, CustomStringConvertible {
    let description: String
}

/// Stops the workload unless `condition` holds.
@inline(__always)
func check(_ condition: Bool, _ message: @autoclosure () -> String) throws(BenchmarkFailure) {
    if !condition { throw BenchmarkFailure(description: message()) }
}

/// One phase's timing in one repetition.
struct PhaseTiming {
    let phase: String
    /// What the time is divided by: actions, calls, stored actions or steps.
    let operations: Int
    let nanoseconds: UInt64
    var nanosecondsPerOperation: Double { Double(nanoseconds) / Double(max(operations, 1)) }
}

/// Everything one repetition of a workload measured.
struct RepetitionResult {
    var phases: [PhaseTiming] = []
    /// Extra per-phase numbers (e.g. bytes per stored action), keyed by phase then by name.
    var extras: [String: [String: Double]] = [:]

    mutating func record(_ phase: String, operations: Int, nanoseconds: UInt64) {
        phases.append(PhaseTiming(phase: phase, operations: operations, nanoseconds: nanoseconds))
    }

    mutating func note(_ phase: String, _ key: String, _ value: Double) {
        extras[phase, default: [:]][key] = value
    }
}

/// One reported line: a phase summarised over the repetitions.
struct PhaseSummary {
    let impl: String
    let workload: String
    let phase: String
    let operations: Int
    let medianNanoseconds: Double
    let minimumNanoseconds: Double
    let repetitions: Int
    let peakResidentKiB: Int?
    /// Sorted by key so output is stable.
    let extras: [(String, Double)]

    /// Folds the repetitions of one workload into one summary per phase, in first-seen order.
    static func summarize(
        impl: String, workload: String, repetitions: [RepetitionResult], peakResidentKiB: Int?
    ) -> [PhaseSummary] {
        var order: [String] = []
        var samples: [String: [Double]] = [:]
        var operations: [String: Int] = [:]
        var extras: [String: [String: [Double]]] = [:]
        for repetition in repetitions {
            for timing in repetition.phases {
                if samples[timing.phase] == nil { order.append(timing.phase) }
                samples[timing.phase, default: []].append(timing.nanosecondsPerOperation)
                operations[timing.phase] = timing.operations
            }
            for (phase, values) in repetition.extras {
                for (key, value) in values { extras[phase, default: [:]][key, default: []].append(value) }
            }
        }
        return order.map { phase in
            let values = samples[phase, default: []].sorted()
            let phaseExtras = (extras[phase] ?? [:]).map { ($0.key, median(of: $0.value.sorted())) }
                .sorted { $0.0 < $1.0 }
            return PhaseSummary(
                impl: impl, workload: workload, phase: phase, operations: operations[phase] ?? 0,
                medianNanoseconds: median(of: values), minimumNanoseconds: values.first ?? 0,
                repetitions: values.count, peakResidentKiB: peakResidentKiB, extras: phaseExtras)
        }
    }

    private static func median(of sorted: [Double]) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
