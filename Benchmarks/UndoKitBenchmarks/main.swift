import Foundation

// undokit-bench: UndoKit's speed and memory on workloads W1–W11 (see Benchmarks/README.md).
// `swift run -c release undokit-bench --help` lists the options.

do throws(OptionsError) {
    let options = try Options.parse(Array(CommandLine.arguments.dropFirst()))
    exit(Runner.run(options))
} catch {
    if error.isHelp {
        Report.write(error.message)
        exit(0)
    }
    Report.writeError("undokit-bench: \(error.message)")
    exit(2)
}
