import Foundation

/// The command line of `undokit-bench`.
struct Options {
    /// Every workload, in the order they run when none is named. The floor runs first so a
    /// reader sees the reference cost before the numbers it bounds.
    static let allWorkloads = ["floor", "W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8", "W9", "W10", "W11"]
    /// The workloads that record through a ``Counter`` and so can use either ``API``.
    static let commandWorkloads = ["W1", "W2", "W3", "W4", "W5", "W6"]

    var n = 1_000_000
    var workloads = Options.allWorkloads
    var repetitions = 5
    var json = false
    var quick = false
    /// Runs the workloads in this process instead of one child process per workload; peak
    /// RSS is then the whole run's, not the workload's.
    var inProcess = false
    /// Cap on the number of `removeAllActions(withTarget:)` calls W5 times (nil: all 1,000).
    var w5Calls: Int?
    /// W8's model size and number of steps (the issue's 10,000 and 10,000).
    var w8Items = 10_000
    var w8Steps = 10_000
    /// The least number of steps (and of undos) each W8 phase times, in cycles of `w8Steps`.
    var w8Operations = 100_000
    /// W10's parts, history size (the second size is a tenth of it) and least number of
    /// operations per phase.
    var w10Parts = 10_000
    var w10Steps = 100_000
    var w10Operations = 100_000
    /// How W1–W6 record their actions.
    var api = API.closures

    static let usage = """
        usage: undokit-bench [--n N] [--workload W1,W2,…] [--repetitions K] [--json] [--quick]
                             [--in-process] [--w5-calls C] [--w8-items I] [--w8-steps S]
                             [--w8-operations M] [--w10-parts P] [--w10-steps S]
                             [--w10-operations M]
                             [--api closures|commands|commands-retained]

          --n N            actions per workload (default 1,000,000)
          --workload LIST  comma-separated subset of: \(allWorkloads.joined(separator: ","))
          --repetitions K  runs per workload; the median and the minimum are reported (default 5)
          --json           one JSON object per line instead of a table
          --quick          CI smoke run: N = 10,000, 1 repetition, W8 with 500 steps and
                           1,000 operations per phase, W10 with 1,000 parts, steps and
                           operations
          --in-process     run every workload in this process (default: one child process each,
                           so that peak RSS belongs to one workload)
          --w5-calls C     time only the first C of W5's 1,000 removeAllActions(withTarget:) calls
          --w8-items I     items in W8's model (default 10,000)
          --w8-steps S     steps in one W8 cycle (default 10,000)
          --w8-operations M  each W8 phase repeats its cycle until it has timed at least M
                           steps or undos (default 100,000)
          --w10-parts P    parts W10's steps declare and its notes name (default 10,000)
          --w10-steps S    W10's larger history (default 100,000; the other is S/10)
          --w10-operations M  notes, refused undos and least undos or dropped steps per
                           W10 phase (default 100,000)
          --api A          how W1–W6 record: closures (registerUndo(withTarget:handler:), the
                           default), commands (perform(_:on:) with an UndoableCommand; impl
                           "undokit-commands") or commands-retained (perform(_:retaining:),
                           the manager holding the model; impl "undokit-commands-retained");
                           the command APIs run W1–W6 only, all of them when none is named
        """

    /// Parses `arguments` (without the executable). Throws a message suitable for stderr.
    static func parse(_ arguments: [String]) throws(OptionsError) -> Options {
        var options = Options()
        var explicitN = false, explicitRepetitions = false, explicitSteps = false, explicitWorkloads = false
        var explicitOperations = false, explicitW10 = false
        var iterator = arguments.makeIterator()

        func value(for flag: String) throws(OptionsError) -> String {
            guard let value = iterator.next() else { throw OptionsError("\(flag) needs a value") }
            return value
        }
        func count(for flag: String, minimum: Int) throws(OptionsError) -> Int {
            let text = try value(for: flag).replacingOccurrences(of: "_", with: "")
                .replacingOccurrences(of: ",", with: "")
            guard let number = Int(text), number >= minimum else {
                throw OptionsError("\(flag) needs an integer ≥ \(minimum), got \(text)")
            }
            return number
        }

        while let argument = iterator.next() {
            switch argument {
            case "--n":
                options.n = try count(for: argument, minimum: 100)
                explicitN = true
            case "--workload", "--workloads":
                options.workloads = try parseWorkloads(value(for: argument))
                explicitWorkloads = true
            case "--api":
                let name = try value(for: argument)
                guard let api = API(rawValue: name) else {
                    throw OptionsError("--api needs one of \(API.allCases.map(\.rawValue).joined(separator: ", ")), got \(name)")
                }
                options.api = api
            case "--repetitions":
                options.repetitions = try count(for: argument, minimum: 1)
                explicitRepetitions = true
            case "--json": options.json = true
            case "--quick": options.quick = true
            case "--in-process": options.inProcess = true
            case "--w5-calls": options.w5Calls = try count(for: argument, minimum: 1)
            case "--w8-items": options.w8Items = try count(for: argument, minimum: 1)
            case "--w8-steps":
                options.w8Steps = try count(for: argument, minimum: 1)
                explicitSteps = true
            case "--w8-operations":
                options.w8Operations = try count(for: argument, minimum: 1)
                explicitOperations = true
            case "--w10-parts":
                options.w10Parts = try count(for: argument, minimum: 1)
                explicitW10 = true
            case "--w10-steps":
                options.w10Steps = try count(for: argument, minimum: 10)
                explicitW10 = true
            case "--w10-operations":
                options.w10Operations = try count(for: argument, minimum: 1)
                explicitW10 = true
            case "--help", "-h": throw OptionsError(usage, isHelp: true)
            default: throw OptionsError("unknown option \(argument)\n\(usage)")
            }
        }
        if options.api != .closures {
            if !explicitWorkloads {
                options.workloads = commandWorkloads
            }
            let unsupported = options.workloads.filter { !commandWorkloads.contains($0) }
            guard unsupported.isEmpty else {
                throw OptionsError("--api \(options.api.rawValue) runs \(commandWorkloads.joined(separator: ",")) only, not \(unsupported.joined(separator: ","))")
            }
        }
        // --quick only supplies defaults, so `--quick --n 50000` still means 50,000.
        if options.quick {
            if !explicitN { options.n = 10_000 }
            if !explicitRepetitions { options.repetitions = 1 }
            if !explicitSteps { options.w8Steps = 500 }
            if !explicitOperations { options.w8Operations = 1_000 }
            if !explicitW10 { (options.w10Parts, options.w10Steps, options.w10Operations) = (1_000, 1_000, 1_000) }
        }
        return options
    }

    private static func parseWorkloads(_ list: String) throws(OptionsError) -> [String] {
        var chosen: [String] = []
        for raw in list.split(separator: ",") {
            let name = raw.trimmingCharacters(in: .whitespaces)
            guard let canonical = allWorkloads.first(where: { $0.caseInsensitiveCompare(name) == .orderedSame })
            else { throw OptionsError("unknown workload \(name); choose from \(allWorkloads.joined(separator: ","))") }
            if !chosen.contains(canonical) { chosen.append(canonical) }
        }
        guard !chosen.isEmpty else { throw OptionsError("--workload needs at least one name") }
        // Keep the canonical order so a table reads the same whichever way it was asked for.
        return allWorkloads.filter(chosen.contains)
    }

    /// The arguments that make a child process run `workload` with these settings.
    func childArguments(for workload: String) -> [String] {
        var arguments = [
            "--workload", workload, "--n", String(n), "--repetitions", String(repetitions),
            "--w8-items", String(w8Items), "--w8-steps", String(w8Steps),
            "--w8-operations", String(w8Operations), "--w10-parts", String(w10Parts),
            "--w10-steps", String(w10Steps), "--w10-operations", String(w10Operations), "--json", "--in-process",
        ]
        if let w5Calls { arguments += ["--w5-calls", String(w5Calls)] }
        if api != .closures { arguments += ["--api", api.rawValue] }
        return arguments
    }
}

struct OptionsError: Error {
    let message: String
    let isHelp: Bool
    init(_ message: String, isHelp: Bool = false) {
        self.message = message
        self.isHelp = isHelp
    }
}
