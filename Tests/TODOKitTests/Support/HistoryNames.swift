import TODOKit

/// A session's history by step names only, for tests that don't care when steps were made.
struct HistoryNames: Equatable, CustomStringConvertible {
    var undo: [String]
    var redo: [String]
    var inProgress: String?

    init(undo: [String], redo: [String], inProgress: String? = nil) {
        self.undo = undo
        self.redo = redo
        self.inProgress = inProgress
    }

    var description: String {
        "undo \(undo), redo \(redo)" + (inProgress.map { ", in progress \($0)" } ?? "")
    }
}

extension EditingSession {
    var historyNames: HistoryNames {
        let history = history
        return HistoryNames(undo: history.undo, redo: history.redo, inProgress: history.inProgress?.name)
    }
}
