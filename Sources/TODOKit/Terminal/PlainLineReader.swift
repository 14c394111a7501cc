import Foundation

/// Reads lines from input that is not edited: a pipe, a file, or a terminal in its own
/// (cooked) mode. What `Swift.readLine()` does, through a buffer of its own, so that it knows
/// when a line is waiting in it and may wait with `poll(2)` on the input and a
/// ``ChangeWatch`` together.
///
/// A line ends at "\n" (a "\r" before it is dropped too); the last line of the input may have
/// no newline. Bytes that are not UTF-8 become U+FFFD.
///
/// A change is shown only while the reader waits with no whole line in its buffer: between
/// two commands, whose output is complete by then, so nothing is ever written into the
/// middle of a line of output. Part of the next line may have arrived; it stays in the buffer,
/// and the line is returned whole once its newline comes.
///
/// ```swift
/// let reader = PlainLineReader(input: STDIN_FILENO)
/// while let line = reader.readLine() { print(line) }
/// ```
public final class PlainLineReader {
    private let input: Int32
    /// Bytes read and not returned yet, from `start`.
    private var buffer: [UInt8] = []
    private var start = 0
    /// How far from `start` the buffer is known to hold no "\n".
    private var scanned = 0
    private var isAtEnd = false

    /// A reader of the descriptor `input`, which it does not close.
    public init(input: Int32) {
        self.input = input
    }

    /// The next line without its newline, or `nil` at the end of input. While no whole line
    /// is buffered, waits on the input and on `watch`, showing each change it reports (the
    /// prompt `show` returns is not drawn: there is none).
    ///
    /// ```swift
    /// let line = reader.readLine(watching: watch)
    /// ```
    public func readLine(watching watch: ChangeWatch? = nil) -> String? {
        var waiting = ChangeWatch.Waiting(watch)
        while true {
            if let line = bufferedLine() {
                return line
            }
            if isAtEnd {
                return remainder()
            }
            if watch != nil {
                guard let (revents, isDue) = waiting.wait(input: input) else {
                    isAtEnd = true
                    continue
                }
                if isDue, let watch, watch.hasChanged() {
                    _ = watch.show()
                    waiting.askBeforeNextWait()
                }
                guard revents[0] != 0 else {
                    continue
                }
            }
            fill()
        }
    }

    /// The first whole line in the buffer, taken out of it.
    private func bufferedLine() -> String? {
        guard let newline = buffer[(start + scanned)...].firstIndex(of: UInt8(ascii: "\n")) else {
            scanned = buffer.count - start
            return nil
        }
        var end = newline
        if end > start, buffer[end - 1] == UInt8(ascii: "\r") {
            end -= 1
        }
        let line = String(decoding: buffer[start..<end], as: UTF8.self)
        start = newline + 1
        scanned = 0
        return line
    }

    /// What is left at the end of the input: a last line with no newline, or `nil`.
    private func remainder() -> String? {
        guard start < buffer.count else {
            return nil
        }
        let line = String(decoding: buffer[start...], as: UTF8.self)
        buffer.removeAll()
        start = 0
        scanned = 0
        return line
    }

    /// Reads what the input has (waiting for it if there is none), or notes its end.
    private func fill() {
        if start > 0, start >= buffer.count / 2 {
            // Returned lines are dropped once they are half the buffer: each byte moves a
            // bounded number of times, however long the input.
            buffer.removeSubrange(..<start)
            start = 0
        }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { bytes in
                Foundation.read(input, bytes.baseAddress, bytes.count)
            }
            if count > 0 {
                buffer += chunk[..<count]
                return
            }
            guard count < 0, errno == EINTR else {
                isAtEnd = true
                return
            }
        }
    }
}
