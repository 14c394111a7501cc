import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A running `todo` process fed through a pipe, whose output is collected as it comes, so a
/// test can interleave several processes line by line.
///
/// Waits are bounded (`patience`), only to turn a hang into a failure; no test asserts how
/// long anything takes.
final class TodoProcess: @unchecked Sendable {
    // Sendable by construction: `output`, `errors` and `finishedStreams` are only touched with
    // `condition` locked; the rest is immutable after `init`.
    let process = Process()
    private let input = Pipe()
    private let condition = NSCondition()
    private var output = Data()
    private var errors = Data()
    private var finishedStreams = 0
    static let patience: TimeInterval = 30

    /// Starts `todo` with `arguments` and a clean environment plus `environment`.
    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        guard let executable = BuiltExecutable.url(named: "todo") else {
            throw Missing()
        }
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        let stdout = Pipe(), stderr = Pipe()
        process.standardInput = input
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        collect(stdout.fileHandleForReading, isError: false)
        collect(stderr.fileHandleForReading, isError: true)
    }

    struct Missing: Error, CustomStringConvertible {
        var description: String { "the todo executable was not found next to the test runner" }
    }

    var pid: Int32 { process.processIdentifier }

    /// Writes `line` and a newline to the process's standard input.
    func send(_ line: String) throws {
        try input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
    }

    func closeInput() {
        try? input.fileHandleForWriting.close()
    }

    /// The complete lines written so far to standard output.
    var outputLines: [String] { condition.withLock { Self.lines(output) } }

    /// The complete lines written so far to standard error.
    var errorLines: [String] { condition.withLock { Self.lines(errors) } }

    /// Waits until standard output has at least `count` complete lines; `false` if that does
    /// not happen within the patience or the process ends first.
    @discardableResult
    func waitForOutput(lines count: Int) -> Bool {
        waitUntil { Self.lines(self.output).count >= count }
    }

    /// Waits until standard error has a line containing `text`.
    @discardableResult
    func waitForError(containing text: String) -> Bool {
        waitUntil { Self.lines(self.errors).contains { $0.contains(text) } }
    }

    /// Closes the input, waits for the end, and returns the exit status.
    func finish() -> Int32 {
        closeInput()
        waitUntil { self.finishedStreams == 2 }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Kills the process with SIGKILL and waits until its output is fully read.
    func kill() {
        _ = Glibc.kill(pid, SIGKILL)
        closeInput()
        waitUntil { self.finishedStreams == 2 }
        process.waitUntilExit()
    }

    @discardableResult
    private func waitUntil(_ predicate: @escaping () -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: Self.patience)
        condition.lock()
        defer { condition.unlock() }
        while !predicate() {
            if finishedStreams == 2 || !condition.wait(until: deadline) {
                return predicate()
            }
        }
        return true
    }

    private func collect(_ handle: FileHandle, isError: Bool) {
        let thread = Thread { [self] in
            while true {
                let data = handle.availableData
                condition.lock()
                if data.isEmpty {
                    finishedStreams += 1
                } else if isError {
                    errors.append(data)
                } else {
                    output.append(data)
                }
                condition.broadcast()
                condition.unlock()
                if data.isEmpty { return }
            }
        }
        thread.start()
    }

    private static func lines(_ data: Data) -> [String] {
        var lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines.removeLast()   // the part after the last newline: empty, or a line still being written
        return lines
    }
}
