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
            var onPath: [UndoTree.NodeID: Layout.Location] = [:]
            var cursor = current
            while let id = cursor, let step = steps[id], onPath[id] == nil {
                onPath[id] = .undo
                cursor = step.parent
            }
            for id in redoPath where steps[id] != nil {
                onPath[id] = .redo
            }
            let places = steps.map { id, step in
                // A parent trimmed away leaves the step at the start, as in the manager's tree.
                (id: id, place: Layout.Place(
                    parent: step.parent.flatMap { steps[$0] == nil ? nil : $0 }, location: onPath[id] ?? .branch,
                    name: step.group.actionName ?? "",
                    date: step.group.date))
            }
            return Layout(sortedPlaces: places.sorted { $0.id < $1.id }, current: current, redoPath: redoPath)
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

        /// Every step with its place, sorted by id: the REPL takes a layout after every line,
        /// and a sorted array is made, searched and compared without hashing.
        public private(set) var places: [(id: UndoTree.NodeID, place: Place)]
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
            // Ids grow along every path from a root, so both paths come out sorted.
            let path = tree.path(to: tree.current).map(\.id)
            let redo = tree.redoPath
            var places = tree.nodes.map { node in
                (id: node.id, place: Place(parent: node.parent, location: .branch, name: node.actionName, date: node.date))
            }
            places.sort { $0.id < $1.id }
            var pathIndex = path.startIndex
            var redoIndex = redo.startIndex
            for index in places.indices {
                let id = places[index].id
                while pathIndex < path.endIndex && path[pathIndex] < id { pathIndex += 1 }
                while redoIndex < redo.endIndex && redo[redoIndex] < id { redoIndex += 1 }
                if pathIndex < path.endIndex && path[pathIndex] == id {
                    places[index].place.location = .undo
                } else if redoIndex < redo.endIndex && redo[redoIndex] == id {
                    places[index].place.location = .redo
                }
            }
            self.init(sortedPlaces: places, current: tree.current, redoPath: tree.redoPath)
        }

        init(sortedPlaces: [(id: UndoTree.NodeID, place: Place)], current: UndoTree.NodeID?, redoPath: [UndoTree.NodeID]) {
            self.places = sortedPlaces
            self.current = current
            self.redoPath = redoPath
        }

        /// The empty history.
        static let empty = Layout(sortedPlaces: [], current: nil, redoPath: [])

        /// Whether the history is one path from the start to the current step: no redo
        /// steps and no branches.
        var isOnePath: Bool {
            redoPath.isEmpty && places.allSatisfy { $0.place.location == .undo }
        }

        /// Makes `id` the current step at `place` (its parent the current step before, or
        /// itself changed in place), after removing the steps `removed`.
        mutating func record(_ id: UndoTree.NodeID, at place: Place, removing removed: [UndoTree.NodeID]) {
            if !removed.isEmpty {
                places.removeAll { removed.contains($0.id) }
                // A step whose parent left hangs at the start, as in a layout of the tree.
                for index in places.indices where places[index].place.parent.map(removed.contains) == true {
                    places[index].place.parent = nil
                }
            }
            if let last = places.last, last.id == id {
                places[places.count - 1].place = place
            } else {
                precondition(places.last.map { $0.id < id } ?? true, "SavedHistory.Layout: steps are recorded in id order")
                places.append((id, place))
            }
            current = id
            redoPath = []
        }

        /// The place of the step with this id, if the history has it.
        ///
        /// ```swift
        /// layout.place(of: id)?.parent   // the step it hangs below
        /// ```
        public func place(of id: UndoTree.NodeID) -> Place? {
            var low = 0
            var high = places.count
            while low < high {
                let middle = (low + high) / 2
                if places[middle].id < id { low = middle + 1 } else { high = middle }
            }
            return low < places.count && places[low].id == id ? places[low].place : nil
        }

        /// The steps that are new in `self` or moved since `saved` (another parent or another
        /// part of the tree), in id order, and those that left.
        ///
        /// A step whose parent left hangs at the start, as a reader applying the change puts
        /// it (see ``SavedHistory``): trimming the oldest step moves no other step.
        public func changes(since saved: Layout) -> (changed: [UndoTree.NodeID], removed: [UndoTree.NodeID]) {
            var changed: [UndoTree.NodeID] = []
            var removed: [UndoTree.NodeID] = []
            var old = saved.places.startIndex
            for (id, place) in places {
                while old < saved.places.endIndex && saved.places[old].id < id {
                    removed.append(saved.places[old].id)
                    old += 1
                }
                guard old < saved.places.endIndex && saved.places[old].id == id else {
                    changed.append(id)
                    continue
                }
                var before = saved.places[old].place
                old += 1
                if let parent = before.parent, place.parent == nil, self.place(of: parent) == nil {
                    before.parent = nil
                }
                if before != place {
                    changed.append(id)
                }
            }
            removed += saved.places[old...].map(\.id)
            return (changed, removed)
        }

        public static func == (lhs: Layout, rhs: Layout) -> Bool {
            lhs.current == rhs.current && lhs.redoPath == rhs.redoPath
                && lhs.places.elementsEqual(rhs.places) { $0.id == $1.id && $0.place == $1.place }
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
