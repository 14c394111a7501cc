import UndoKit

/// A document whose edits register their inverses: what a history tree moves through.
final class TreeDocument {
    let manager: UndoManager
    private(set) var items: [Int] = []

    init(manager: UndoManager) {
        self.manager = manager
    }

    /// One step: appends `value` in a group named after it.
    func add(_ value: Int) {
        manager.beginUndoGrouping()
        manager.setActionName("Add \(value)")
        append(value)
        manager.endUndoGrouping()
    }

    /// One step keyed "typing": it merges into the step before if that one has the key and
    /// closed less than the manager's coalescing interval ago.
    func type(_ value: Int) {
        manager.beginUndoGrouping()
        manager.setActionCoalescingKey("typing")
        append(value)
        manager.endUndoGrouping()
    }

    func append(_ value: Int) {
        items.append(value)
        manager.registerUndo(withTarget: self) { $0.removeLast() }
    }

    func removeLast() {
        let value = items.removeLast()
        manager.registerUndo(withTarget: self) { $0.append(value) }
    }
}

/// What the history tree should be, kept by hand: every node with its parent and the
/// document it leaves, the current node, and which child redo follows.
struct ReferenceTree {
    struct Node: Equatable {
        var parent: UInt64?
        var name: String
        var items: [Int]
        /// When the node was last current.
        var lastVisit: Int
    }

    var keepsBranches: Bool
    var nodes: [UInt64: Node] = [:]
    var current: UInt64?
    var nextID: UInt64 = 1
    var clock = 0
    /// The document at the start: what trimmed steps left behind.
    var startItems: [Int] = []
    var items: [Int] { current.map { nodes[$0]!.items } ?? startItems }

    init(keepsBranches: Bool) {
        self.keepsBranches = keepsBranches
    }

    func children(of id: UInt64?) -> [UInt64] {
        nodes.filter { $0.value.parent == id }.keys.sorted()
    }

    /// The child redo performs: the one most recently current.
    func redoChild(of id: UInt64?) -> UInt64? {
        children(of: id).max { nodes[$0]!.lastVisit < nodes[$1]!.lastVisit }
    }

    mutating func visit(_ id: UInt64?) {
        current = id
        clock += 1
        if let id { nodes[id]!.lastVisit = clock }
    }

    mutating func add(_ value: Int) {
        if !keepsBranches {
            // Apple: the redo steps are gone.
            for child in children(of: current) {
                removeSubtree(child)
            }
        }
        let id = nextID
        nextID += 1
        nodes[id] = Node(parent: current, name: "Add \(value)", items: items + [value], lastVisit: 0)
        visit(id)
    }

    /// Drops the least recently visited leaf off the path to the current node until at most
    /// `limit` nodes remain; with only that path left, its oldest node (whose children become
    /// roots).
    mutating func trim(to limit: Int) {
        while nodes.count > limit {
            let onPath = Set(path(to: current))
            let parents = Set(nodes.values.compactMap(\.parent))
            let leaves = nodes.keys.filter { !parents.contains($0) && !onPath.contains($0) }
            if let leaf = leaves.min(by: { nodes[$0]!.lastVisit < nodes[$1]!.lastVisit }) {
                nodes[leaf] = nil
            } else {
                let root = path(to: current)[0]
                startItems = nodes[root]!.items
                for child in children(of: root) {
                    nodes[child]!.parent = nil
                }
                nodes[root] = nil
            }
        }
    }

    mutating func removeSubtree(_ id: UInt64) {
        for child in children(of: id) {
            removeSubtree(child)
        }
        nodes[id] = nil
    }

    mutating func undo() {
        guard let current else { return }
        visit(nodes[current]!.parent)
    }

    mutating func redo() {
        guard let child = redoChild(of: current) else { return }
        visit(child)
    }

    func path(to id: UInt64?) -> [UInt64] {
        var path: [UInt64] = []
        var cursor = id
        while let node = cursor {
            path.append(node)
            cursor = nodes[node]!.parent
        }
        return path.reversed()
    }

    /// go(to:): undo to the common ancestor, redo down, visiting each node on the way.
    mutating func go(to target: UInt64?) {
        let from = path(to: current)
        let to = path(to: target)
        var shared = 0
        while shared < min(from.count, to.count) && from[shared] == to[shared] {
            shared += 1
        }
        for index in stride(from: from.count - 2, through: shared - 1, by: -1) {
            visit(index >= 0 ? from[index] : nil)
        }
        for id in to.dropFirst(shared) {
            visit(id)
        }
    }

    mutating func goEarlier() {
        guard let current else { return }
        go(to: nodes.keys.filter { $0 < current }.max())
    }

    mutating func goLater() {
        let now = current ?? 0
        guard let later = nodes.keys.filter({ $0 > now }).min() else { return }
        go(to: later)
    }
}

extension UndoManager {
    /// Goes to `node`, or to the start for `nil`: for the randomized tests, whose picks include
    /// the start on purpose (``UndoManager/go(to:)`` takes a node, so that a failed lookup is
    /// never mistaken for the start).
    func go(toNodeOrStart node: UndoTree.Node?) {
        if let node {
            go(to: node)
        } else {
            goToStart()
        }
    }
}
