import Foundation
import Testing
import TODOKit

@Suite struct CommandParsingTests {
    @Test(arguments: [
        ("add Buy milk", Command.add(title: "Buy milk")),
        ("  ADD   Buy  milk  ", .add(title: "Buy  milk")),
        ("add 42", .add(title: "42")),
        ("edit 2 Buy oat milk", .edit(item: 2, title: "Buy oat milk")),
        ("Edit 10 x", .edit(item: 10, title: "x")),
        ("detail 1 2 litres, semi-skimmed", .detail(item: 1, text: "2 litres, semi-skimmed")),
        ("detail 1", .detail(item: 1, text: "")),
        ("priority 3 high", .priority(item: 3, .high)),
        ("PRIORITY 3 Low", .priority(item: 3, .low)),
        ("priority 1 medium", .priority(item: 1, .medium)),
        ("done 1", .done(item: 1)),
        ("undone 007", .undone(item: 7)),
        ("rm 2", .remove(item: 2)),
        ("mv 3 1", .move(item: 3, to: 1)),
        ("list", .list),
        ("LiSt", .list),
        ("undo", .undo(steps: 1)),
        ("undo 3", .undo(steps: 3)),
        ("redo", .redo(steps: 1)),
        ("redo 2", .redo(steps: 2)),
        ("undo!", .undo(steps: 1, anyway: true)),
        ("UNDO! 2", .undo(steps: 2, anyway: true)),
        ("redo!", .redo(steps: 1, anyway: true)),
        ("drop", .drop(redo: false)),
        ("drop undo", .drop(redo: false)),
        ("Drop Redo", .drop(redo: true)),
        ("goto 0", .goto(step: 0)),
        ("GO 4", .goto(step: 4)),
        ("begin", .begin(name: nil)),
        ("begin Plan Week", .begin(name: "Plan Week")),
        ("end", .end),
        ("history", .history),
        ("help", .help),
        ("quit", .quit),
        ("QUIT", .quit),
    ])
    func validCommands(text: String, expected: Command) throws {
        #expect(try Command(parsing: text) == expected)
    }

    @Test(arguments: [
        ("frob", CommandParseError.unknownCommand("frob"), "unknown command \"frob\" (type help for the list of commands)"),
        ("remove 1", .unknownCommand("remove"), "unknown command \"remove\" (type help for the list of commands)"),
        ("add", .missingArgument(.add, "<title>"), "missing <title> (usage: add <title>)"),
        ("add    ", .missingArgument(.add, "<title>"), "missing <title> (usage: add <title>)"),
        ("edit", .missingArgument(.edit, "<n>"), "missing <n> (usage: edit <n> <title>)"),
        ("edit 1", .missingArgument(.edit, "<title>"), "missing <title> (usage: edit <n> <title>)"),
        ("edit one Buy", .invalidItemNumber(.edit, "one"), "\"one\" is not an item number (items are numbered from 1) (usage: edit <n> <title>)"),
        ("detail", .missingArgument(.detail, "<n>"), "missing <n> (usage: detail <n> [text])"),
        ("priority 1", .missingArgument(.priority, "low|medium|high"), "missing low|medium|high (usage: priority <n> low|medium|high)"),
        ("priority 1 urgent", .invalidPriority("urgent"), "\"urgent\" is not a priority (usage: priority <n> low|medium|high)"),
        ("priority 1 high now", .unexpectedArgument(.priority, "now"), "unexpected \"now\" after priority (usage: priority <n> low|medium|high)"),
        ("done", .missingArgument(.done, "<n>"), "missing <n> (usage: done <n>)"),
        ("done 0", .invalidItemNumber(.done, "0"), "\"0\" is not an item number (items are numbered from 1) (usage: done <n>)"),
        ("done -1", .invalidItemNumber(.done, "-1"), "\"-1\" is not an item number (items are numbered from 1) (usage: done <n>)"),
        ("done +1", .invalidItemNumber(.done, "+1"), "\"+1\" is not an item number (items are numbered from 1) (usage: done <n>)"),
        ("done 1.5", .invalidItemNumber(.done, "1.5"), "\"1.5\" is not an item number (items are numbered from 1) (usage: done <n>)"),
        ("done 99999999999999999999", .invalidItemNumber(.done, "99999999999999999999"), "\"99999999999999999999\" is not an item number (items are numbered from 1) (usage: done <n>)"),
        ("done 1 2", .unexpectedArgument(.done, "2"), "unexpected \"2\" after done (usage: done <n>)"),
        ("undone x", .invalidItemNumber(.undone, "x"), "\"x\" is not an item number (items are numbered from 1) (usage: undone <n>)"),
        ("rm", .missingArgument(.rm, "<n>"), "missing <n> (usage: rm <n>)"),
        ("mv 1", .missingArgument(.mv, "<m>"), "missing <m> (usage: mv <n> <m>)"),
        ("mv 1 top", .invalidItemNumber(.mv, "top"), "\"top\" is not an item number (items are numbered from 1) (usage: mv <n> <m>)"),
        ("list all", .unexpectedArgument(.list, "all"), "unexpected \"all\" after list (usage: list)"),
        ("undo 2 3", .unexpectedArgument(.undo, "3"), "unexpected \"3\" after undo (usage: undo [count])"),
        ("rm! 1", .unknownCommand("rm!"), "unknown command \"rm!\" (type help for the list of commands)"),
        ("drop it", .unexpectedArgument(.drop, "it"), "unexpected \"it\" after drop (usage: drop [redo])"),
        ("drop redo 2", .unexpectedArgument(.drop, "2"), "unexpected \"2\" after drop (usage: drop [redo])"),
        ("undo 0", .invalidNumber(.undo, "0", expected: "a count of steps (1 or more)"),
         "\"0\" is not a count of steps (1 or more) (usage: undo [count])"),
        ("goto", .missingArgument(.goto, "<step>"), "missing <step> (usage: goto <step>)"),
        ("goto -1", .invalidNumber(.goto, "-1", expected: "a step number as history shows it (0: before the first step)"),
         "\"-1\" is not a step number as history shows it (0: before the first step) (usage: goto <step>)"),
        ("end now", .unexpectedArgument(.end, "now"), "unexpected \"now\" after end (usage: end)"),
    ])
    func invalidCommandsNameTheProblemAndTheUsage(text: String, error: CommandParseError, message: String) {
        #expect(throws: error) { try Command(parsing: text) }
        #expect(error.description == message)
    }

    @Test func everyVerbIsParsedCaseInsensitively() throws {
        for verb in Command.Verb.allCases {
            let example = verb.usage
                .replacingOccurrences(of: "<n>", with: "1")
                .replacingOccurrences(of: "<m>", with: "2")
                .replacingOccurrences(of: "<title>", with: "Title")
                .replacingOccurrences(of: "[text]", with: "Text")
                .replacingOccurrences(of: "[name]", with: "Name")
                .replacingOccurrences(of: "[count]", with: "2")
                .replacingOccurrences(of: "[redo]", with: "redo")
                .replacingOccurrences(of: "<step>", with: "0")
                .replacingOccurrences(of: "low|medium|high", with: "high")
            #expect(try Command(parsing: example).verb == verb)
            #expect(try Command(parsing: example.uppercased()).verb == verb)
        }
    }

    @Test func semicolonsSeparateCommandsOnALine() throws {
        #expect(try Command.parseLine("add Buy milk; add Buy eggs;done 1") == [
            .add(title: "Buy milk"), .add(title: "Buy eggs"), .done(item: 1),
        ])
        #expect(try Command.parseLine("list;") == [.list])
        #expect(try Command.parseLine(" ; ;; ") == [])
        #expect(try Command.parseLine("") == [])
    }

    @Test func oneBadCommandRejectsTheWholeLine() {
        #expect(throws: CommandParseError.unknownCommand("frob")) {
            try Command.parseLine("add Buy milk; frob; add Buy eggs")
        }
    }
}

@Suite struct CommandLineQuotingTests {
    @Test(arguments: [
        ("add semi; add colon", [Command.add(title: "semi"), .add(title: "colon")]),
        ("add \"semi; colon\"", [.add(title: "semi; colon")]),
        ("add semi\\; colon", [.add(title: "semi; colon")]),
        ("add \"a \\\"quoted\\\" word\"", [.add(title: "a \"quoted\" word")]),
        ("add back\\\\slash; list", [.add(title: "back\\slash"), .list]),
        ("add C:\\temp", [.add(title: "C:\\temp")]),
        ("add Don't forget; list", [.add(title: "Don't forget"), .list]),
        ("add trailing\\", [.add(title: "trailing\\")]),
    ])
    func semicolonsInQuotesOrEscapedAreText(line: String, commands: [Command]) throws {
        #expect(try Command.parseLine(line) == commands)
    }

    @Test func anUnclosedQuoteIsAnError() {
        #expect(throws: CommandParseError.unterminatedQuote) { try Command.parseLine("add \"Buy milk; list") }
        #expect("\(CommandParseError.unterminatedQuote)".contains("does not close"))
    }

    @Test(arguments: [
        (["add", "semi; colon"], [Command.add(title: "semi; colon")]),
        (["add", "milk", ";", "add", "eggs"], [.add(title: "milk"), .add(title: "eggs")]),
        (["add", "say \"hi\""], [.add(title: "say \"hi\"")]),
        (["add", "a\\b"], [.add(title: "a\\b")]),
    ])
    func oneShotArgumentsKeepTheirText(arguments: [String], commands: [Command]) throws {
        #expect(try Command.parseLine(Command.line(fromArguments: arguments)) == commands)
    }
}
