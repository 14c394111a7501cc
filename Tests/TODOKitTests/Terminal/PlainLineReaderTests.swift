import Foundation
import Testing
@testable import TODOKit

/// The reader of input that is not a terminal, on real pipes: its lines are what
/// `Swift.readLine()` gives, and while it waits between two lines it shows the changes a
/// ``ChangeWatch`` reports, and only then.
@Suite struct PlainLineReaderTests {
    /// A pipe whose ends are closed when it goes.
    final class Channel {
        let readEnd: Int32
        private(set) var writeEnd: Int32

        init() {
            var ends: [Int32] = [-1, -1]
            precondition(pipe(&ends) == 0, "a pipe could be made")
            readEnd = ends[0]
            writeEnd = ends[1]
        }

        deinit {
            close(readEnd)
            closeWriteEnd()
        }

        func send(_ text: String) {
            Self.send(text, to: writeEnd)
        }

        /// Writes `text` to the descriptor `end`: what a writer on another thread calls, with
        /// the number only (the channel stays on the test's thread).
        static func send(_ text: String, to end: Int32) {
            var bytes = Array(text.utf8)[...]
            while !bytes.isEmpty {
                let written = bytes.withUnsafeBytes { write(end, $0.baseAddress, $0.count) }
                guard written > 0 else { return }
                bytes = bytes.dropFirst(written)
            }
        }

        /// The write end, given away: whoever takes it closes it.
        func takeWriteEnd() -> Int32 {
            defer { writeEnd = -1 }
            return writeEnd
        }

        func send(bytes: [UInt8]) {
            _ = bytes.withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) }
        }

        func closeWriteEnd() {
            if writeEnd >= 0 {
                close(writeEnd)
                writeEnd = -1
            }
        }

        /// Empties the pipe without waiting.
        func drain() {
            var descriptor = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
            var byte: UInt8 = 0
            while poll(&descriptor, 1, 0) > 0, descriptor.revents & Int16(POLLIN) != 0, read(readEnd, &byte, 1) == 1 {}
        }
    }

    /// Every line of `input`, read to its end.
    static func lines(of input: [UInt8]) -> [String] {
        let channel = Channel()
        channel.send(bytes: input)
        channel.closeWriteEnd()
        let reader = PlainLineReader(input: channel.readEnd)
        var lines: [String] = []
        while let line = reader.readLine() {
            lines.append(line)
        }
        return lines
    }

    @Test(arguments: [
        ("", []),
        ("\n", [""]),
        ("add milk\nlist\n", ["add milk", "list"]),
        ("add milk\nlist", ["add milk", "list"]),          // the last line needs no newline
        ("add milk\r\nlist\r\n", ["add milk", "list"]),    // as Swift.readLine strips "\r\n"
        ("a\r b\n", ["a\r b"]),                            // a "\r" inside the line stays
        ("\n\nx\n", ["", "", "x"]),
        ("日本語 👍🏽\n", ["日本語 👍🏽"]),
    ] as [(String, [String])])
    func linesAreWhatReadLineGives(input: String, lines: [String]) {
        #expect(Self.lines(of: Array(input.utf8)) == lines)
    }

    @Test func invalidUTF8BecomesReplacementCharacters() {
        #expect(Self.lines(of: [0x61, 0xFF, 0x62, 0x0A]) == ["a\u{FFFD}b"])
    }

    /// A line longer than one read, and many lines in one read, come out whole and in order.
    @Test func longInputIsReadWholeAndInOrder() {
        let long = String(repeating: "x", count: 200_000)
        let many = (1...5_000).map { "add item \($0)" }
        let input = ([long] + many + [long]).joined(separator: "\n") + "\n"
        let channel = Channel()
        let reader = PlainLineReader(input: channel.readEnd)
        // Written from another thread: the pipe holds less than the input.
        let end = channel.takeWriteEnd()
        let writer = Thread {
            Channel.send(input, to: end)
            close(end)
        }
        writer.start()
        var lines: [String] = []
        while let line = reader.readLine() {
            lines.append(line)
        }
        #expect(lines == [long] + many + [long])
    }

    /// A watch whose change comes through a descriptor of its own (as PostgreSQL's does): the
    /// reader, waiting for the rest of a line, shows the change at once, and the line comes
    /// whole when its end arrives.
    @Test func aChangeIsShownWhileWaitingAndThePartialLineIsKept() {
        let input = Channel()
        let changes = Channel()
        let reader = PlainLineReader(input: input.readEnd)
        var shown: [String] = []
        var pending = false
        let watch = ChangeWatch(
            descriptor: { changes.readEnd },
            interval: .milliseconds(250),
            hasChanged: { pending },
            show: {
                changes.drain()
                pending = false
                shown.append("changed")
                // The rest of the line comes once the change is shown.
                input.send("o\nlist\n")
                return "unused> "
            }
        )
        input.send("add one\nadd tw")
        #expect(reader.readLine(watching: watch) == "add one")
        #expect(shown.isEmpty, "a whole line was waiting: no wait, nothing shown")
        pending = true
        changes.send("!")
        #expect(reader.readLine(watching: watch) == "add two")
        #expect(shown == ["changed"])
        #expect(reader.readLine(watching: watch) == "list")
        #expect(shown == ["changed"], "a line was buffered: nothing more shown")
    }

    /// With no descriptor (SQLite), the reader asks before it waits, then every interval,
    /// and shows a change only when there is one; after showing it, it asks again before
    /// waiting (showing reads the list, which may bring news of the next change).
    @Test func withNoDescriptorTheReaderAsksEveryInterval() {
        let input = Channel()
        let reader = PlainLineReader(input: input.readEnd)
        var asked = 0
        var shown = 0
        let watch = ChangeWatch(
            descriptor: { nil },
            interval: .milliseconds(10),
            hasChanged: {
                asked += 1
                return asked == 3
            },
            show: {
                shown += 1
                input.send("list\n")
                return "unused> "
            }
        )
        #expect(reader.readLine(watching: watch) == "list")
        #expect(asked == 4)
        #expect(shown == 1)
    }

    /// A change descriptor that hangs up stays readable for ever: the reader stops polling it
    /// and asks every interval instead, rather than spin. (Spinning, it would ask thousands of
    /// times in the 300 ms the input takes to come.)
    @Test func aDescriptorThatHangsUpIsNotPolledAgain() {
        let input = Channel()
        let changes = Channel()
        changes.closeWriteEnd()
        let reader = PlainLineReader(input: input.readEnd)
        var asked = 0
        let watch = ChangeWatch(
            descriptor: { changes.readEnd },
            interval: .milliseconds(100),
            hasChanged: {
                asked += 1
                return false
            },
            show: { "unused> " }
        )
        let end = input.writeEnd
        let writer = Thread {
            Thread.sleep(forTimeInterval: 0.3)
            Channel.send("list\n", to: end)
        }
        writer.start()
        #expect(reader.readLine(watching: watch) == "list")
        #expect((1...20).contains(asked), "asked \(asked) times")
    }

    @Test func theEndOfInputEndsTheWaitAndReturnsWhatIsLeft() {
        let input = Channel()
        let reader = PlainLineReader(input: input.readEnd)
        let watch = ChangeWatch(descriptor: { nil }, interval: .milliseconds(10), hasChanged: { false }, show: { "" })
        input.send("last")
        input.closeWriteEnd()
        #expect(reader.readLine(watching: watch) == "last")
        #expect(reader.readLine(watching: watch) == nil)
    }
}
