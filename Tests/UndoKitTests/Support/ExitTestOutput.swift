import Testing

extension Optional where Wrapped == ExitTest.Result {
    /// What the child process of an exit test wrote to standard error, as text; empty when the
    /// exit test did not run (its failure is recorded by `#expect` itself).
    var standardErrorText: String {
        map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
    }
}
