import Foundation
import UndoKit

/// The history file as a base and the changes appended after it, so that saving after a
/// change costs what the change costs, not what the whole history costs.
///
/// Format version 2 of `todo.json.history`:
///
/// ```
/// {"formatVersion":2,"revision":40}
/// {"clean":{"current":true},"formatVersion":2,"redo":[],"undo":[…]}
/// 1a2b3c4d {"current":7,"redo":[],"removed":[],"revision":41,"steps":[{"parent":6,"step":{"id":7,…}}]}
/// 5e6f7a8b {"current":6,"redo":[7],"removed":[],"revision":42,"steps":[{"parent":6,"step":{"id":7,…}}]}
/// ```
///
/// The first two lines are the base: the history as of the header's revision, as UndoKit
/// encodes it (``UndoHistory``), every step with its node id. Each further line is one
/// ``SavedHistory/Change``, framed like a journal line (a CRC-32 of the payload, a space, the
/// payload), appended under the store's lock right after the commit of the revision it names,
/// without an `fsync` of its own: the journal's `fsync` makes the list durable, and a change
/// lost to a power cut, or cut short by a crash, leaves the history behind the list, which
/// the reader drops with one warning (never the list), as it did with a whole-file history.
/// Once the changes outweigh the base (so rewriting it is paid for by as many bytes of appends,
/// and a reader decodes at most about two histories), the REPL writes the base again, whole,
/// as before: a temporary file, flushed and renamed into place.
extension SavedHistory {
    /// What one commit changed in the history tree: the steps that are new or moved (a step
    /// that undo or redo moved is saved again in the form its new place holds it), the steps
    /// that left (trimmed), the current step and the path redo follows.
    ///
    /// ```swift
    /// let change = SavedHistory.Change(revision: 42, steps: [], removed: [], current: nil, redoPath: [])
    /// ```
    public struct Change: Equatable, Sendable {
        /// The list revision this change belongs to.
        public var revision: UInt64
        /// New or moved steps, each with the step it hangs below.
        public var steps: [UndoHistory<TODOCommand>.BranchStep]
        /// Steps that left the history.
        public var removed: [UndoTree.NodeID]
        /// The step the list is at (`nil`: before the first).
        public var current: UndoTree.NodeID?
        /// The steps redo performs, the next first.
        public var redoPath: [UndoTree.NodeID]

        /// Creates a change.
        ///
        /// ```swift
        /// let change = SavedHistory.Change(revision: 2, steps: [], removed: [], current: nil, redoPath: [])
        /// ```
        public init(
            revision: UInt64, steps: [UndoHistory<TODOCommand>.BranchStep], removed: [UndoTree.NodeID],
            current: UndoTree.NodeID?, redoPath: [UndoTree.NodeID]
        ) {
            self.revision = revision
            self.steps = steps
            self.removed = removed
            self.current = current
            self.redoPath = redoPath
        }

        /// The change as one framed line of the history file.
        func encodedLine() -> [UInt8] {
            var writer = JSONWriter()
            writer.append("{")
            writer.appendKey("current")
            if let current { writer.appendInteger(current.rawValue) } else { writer.append("null") }
            writer.append(",")
            writer.appendKey("redo")
            Self.write(redoPath, to: &writer)
            writer.append(",")
            writer.appendKey("removed")
            Self.write(removed, to: &writer)
            writer.append(",")
            writer.appendKey("revision")
            writer.appendInteger(revision)
            writer.append(",")
            writer.appendKey("steps")
            writer.append("[")
            for (index, branch) in steps.enumerated() {
                if index > 0 { writer.append(",") }
                writer.append("{")
                if let parent = branch.parent {
                    writer.appendKey("parent")
                    writer.appendInteger(parent.rawValue)
                    writer.append(",")
                }
                writer.appendKey("step")
                SavedHistory.write(branch.step, to: &writer)
                writer.append("}")
            }
            writer.append("]}")
            return TODOStore.framedLine(writer.bytes)
        }

        private static func write(_ ids: [UndoTree.NodeID], to writer: inout JSONWriter) {
            writer.append("[")
            for (index, id) in ids.enumerated() {
                if index > 0 { writer.append(",") }
                writer.appendInteger(id.rawValue)
            }
            writer.append("]")
        }
    }

    /// The history as a tree of steps, which changes apply to; what a base and its changes
    /// read back as.
    struct Tree: Equatable {
        struct Step: Equatable {
            var parent: UndoTree.NodeID?
            var group: UndoHistory<TODOCommand>.Group
        }

        var steps: [UndoTree.NodeID: Step] = [:]
        var current: UndoTree.NodeID?
        var redoPath: [UndoTree.NodeID] = []

        /// The tree of a history whose every step has an id; `nil` otherwise (a version 1
        /// history, which no change follows).
        init?(_ history: UndoHistory<TODOCommand>) {
            var parent: UndoTree.NodeID?
            for group in history.undoSteps {
                guard let id = group.id else { return nil }
                steps[id] = Step(parent: parent, group: group)
                parent = id
            }
            current = parent
            for group in history.redoSteps.reversed() {
                guard let id = group.id else { return nil }
                steps[id] = Step(parent: parent, group: group)
                redoPath.append(id)
                parent = id
            }
            for branch in history.branches {
                guard let id = branch.step.id else { return nil }
                steps[id] = Step(parent: branch.parent, group: branch.step)
            }
        }

        /// Applies one change; throws if it names a step the tree does not have.
        mutating func apply(_ change: Change) throws(SavedHistoryError) {
            for id in change.removed {
                steps[id] = nil
            }
            for branch in change.steps {
                guard let id = branch.step.id else { throw .corrupt(reason: "a changed step has no id") }
                steps[id] = Step(parent: branch.parent, group: branch.step)
            }
            for id in [change.current].compactMap({ $0 }) + change.redoPath where steps[id] == nil {
                throw .corrupt(reason: "revision \(change.revision) names step \(id), which the history does not have")
            }
            current = change.current
            redoPath = change.redoPath
        }

        /// The history this tree is: the path to the current step, the redo path, and every
        /// other step as a branch. The clean mark is the current step: the list on disk is the
        /// saved state.
        var history: UndoHistory<TODOCommand> {
            var undo: [UndoHistory<TODOCommand>.Group] = []
            var onPath: Set<UndoTree.NodeID> = []
            var cursor = current
            while let id = cursor, let step = steps[id], onPath.insert(id).inserted {
                undo.append(step.group)
                cursor = step.parent
            }
            let redo = redoPath.compactMap { steps[$0]?.group }
            onPath.formUnion(redoPath)
            let branches = steps.keys.sorted().filter { !onPath.contains($0) }.map { id in
                // A parent trimmed away leaves its branch at the start.
                UndoHistory<TODOCommand>.BranchStep(
                    parent: steps[id]!.parent.flatMap { steps[$0] == nil ? nil : $0 }, step: steps[id]!.group)
            }
            return UndoHistory(undoSteps: undo.reversed(), redoSteps: redo.reversed(), branches: branches, cleanMark: .current)
        }

        /// Where each step is, to tell which steps a change moved.
        var layout: Layout {
            var places: [UndoTree.NodeID: Layout.Place] = [:]
            func place(_ step: Step, _ location: Layout.Location) -> Layout.Place {
                Layout.Place(parent: step.parent, location: location, name: step.group.actionName ?? "", date: step.group.date)
            }
            var cursor = current
            while let id = cursor, let step = steps[id], places[id] == nil {
                places[id] = place(step, .undo)
                cursor = step.parent
            }
            for id in redoPath {
                if let step = steps[id] { places[id] = place(step, .redo) }
            }
            for (id, step) in steps where places[id] == nil {
                places[id] = place(step, .branch)
            }
            return Layout(places: places, current: current, redoPath: redoPath)
        }
    }

    /// Where every step of a history is (its parent, and whether undo, redo or neither
    /// reaches it), without the steps themselves: what the REPL keeps of the history it last
    /// saved, to write only what changed.
    public struct Layout: Equatable, Sendable {
        /// A step's place, and what tells that its content changed in place.
        public struct Place: Equatable, Sendable {
            /// The step it hangs below.
            public var parent: UndoTree.NodeID?
            /// Which of the tree's three parts holds it, which decides the form of its group.
            public var location: Location
            /// The step's name and date: an edit merged into the step (coalescing) renames it
            /// ("Edit "Buy milk"") and dates it anew, so a step whose commands changed in place
            /// is saved again.
            public var name: String = ""
            public var date: Date?
        }

        /// The part of the tree a step is in.
        public enum Location: Equatable, Sendable {
            /// On the path from the start to the current step: undo reverts it.
            case undo
            /// On the path redo follows.
            case redo
            /// On a branch.
            case branch
        }

        /// Every step's place, by id.
        public var places: [UndoTree.NodeID: Place]
        /// The current step.
        public var current: UndoTree.NodeID?
        /// The redo path, the next step first.
        public var redoPath: [UndoTree.NodeID]

        /// The layout of an undo manager's history tree.
        ///
        /// ```swift
        /// let layout = SavedHistory.Layout(session.undoManager.historyTree)
        /// ```
        public init(_ tree: UndoTree) {
            let path = Set(tree.path(to: tree.current).map(\.id))
            let redo = Set(tree.redoPath)
            var places: [UndoTree.NodeID: Place] = [:]
            for node in tree.nodes {
                let location: Location = path.contains(node.id) ? .undo : redo.contains(node.id) ? .redo : .branch
                places[node.id] = Place(parent: node.parent, location: location, name: node.actionName, date: node.date)
            }
            self.init(places: places, current: tree.current, redoPath: tree.redoPath)
        }

        init(places: [UndoTree.NodeID: Place], current: UndoTree.NodeID?, redoPath: [UndoTree.NodeID]) {
            self.places = places
            self.current = current
            self.redoPath = redoPath
        }

        /// The empty history.
        static let empty = Layout(places: [:], current: nil, redoPath: [])

        /// The steps that are new in `self` or moved since `saved` (another parent or another
        /// part of the tree), in id order, and those that left.
        public func changes(since saved: Layout) -> (changed: [UndoTree.NodeID], removed: [UndoTree.NodeID]) {
            let changed = places.filter { saved.places[$0.key] != $0.value }.keys.sorted()
            let removed = saved.places.keys.filter { places[$0] == nil }.sorted()
            return (changed, removed)
        }
    }
}

extension SavedHistory.Change: Decodable {
    private enum CodingKeys: String, CodingKey {
        case current, redo, removed, revision, steps
    }

    /// Reads a change line's payload, as ``encodedLine()`` writes it.
    ///
    /// ```swift
    /// let change = try JSONDecoder().decode(SavedHistory.Change.self, from: payload)
    /// ```
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        revision = try container.decode(UInt64.self, forKey: .revision)
        current = try container.decodeIfPresent(UndoTree.NodeID.self, forKey: .current)
        redoPath = try container.decode([UndoTree.NodeID].self, forKey: .redo)
        removed = try container.decode([UndoTree.NodeID].self, forKey: .removed)
        steps = try container.decode([UndoHistory<TODOCommand>.BranchStep].self, forKey: .steps)
    }
}

extension TODOStore {
    /// Appends one change to the history file, under the lock the caller holds, right after
    /// the commit of the revision it names. No `fsync`: see `SavedHistory+Log.swift` for why
    /// a lost change costs the history, never the list.
    ///
    /// A line cut short by a crashed append is cut off first, so it cannot glue itself to
    /// this one.
    ///
    /// ```swift
    /// try store.appendHistoryChange(change, holding: lock)
    /// ```
    ///
    /// - Throws: ``TODOStoreError/unwritable(path:reason:)``, naming the history file; the
    ///   file is then as it was.
    /// - Returns: The bytes appended.
    @discardableResult
    public func appendHistoryChange(_ change: SavedHistory.Change, holding lock: borrowing Lock) throws(TODOStoreError) -> Int {
        precondition(lock.path == lockURL.path, "TODOStore.appendHistoryChange needs the lock of this store")
        let path = historyURL.path
        let line = change.encodedLine()
        do throws(POSIX.Failure) {
            guard let file = try POSIX.OpenFile.open(atPath: path, flags: O_RDWR) else {
                throw POSIX.Failure(reason: "the history file is missing")
            }
            try file.requireRegularFile()
            do {
                try faultInjector(.appendingHistoryChange)
            } catch {
                throw POSIX.Failure(reason: "\(error)")
            }
            var end = try file.identity().size
            if end > 0 {
                let tail = try file.read(from: max(0, end - 4096))
                if tail.last != 0x0A {
                    // The end of the last complete line (the base always ends with one).
                    guard let newline = tail.lastIndex(of: 0x0A) else {
                        throw POSIX.Failure(reason: "the history file ends in a line longer than 4 KiB without a newline")
                    }
                    end = max(0, end - 4096) + newline + 1
                    try file.truncate(to: end)
                }
            }
            do {
                try file.write(line, at: end)
            } catch {
                try? file.truncate(to: end)
                throw error
            }
        } catch {
            throw .unwritable(path: path, reason: error.reason)
        }
        return line.count
    }
}
