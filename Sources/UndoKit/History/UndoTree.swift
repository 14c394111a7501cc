import Foundation

/// Every step of an undo manager's history as a tree: what a History panel draws.
///
/// Take it from ``UndoManager/historyTree``. Each node is one top-level step; its parent is
/// the step current when it was recorded (`nil` at the start). Without
/// ``UndoManager/keepsRedoBranches`` the tree is a single path, the undo steps then the redo
/// steps; with it, the steps a new edit after undoing would discard stay as an older branch.
///
/// ```swift
/// let tree = manager.historyTree
/// for node in tree.nodes {
///     let marker = node.id == tree.current ? "▸" : " "
///     print(marker, String(repeating: "  ", count: tree.depth(of: node)), node.actionName)
/// }
/// manager.go(to: tree.nodes[0])      // back to the state after the first step
/// ```
///
/// A tree is a value: take a new one after each change (reading it is tracked by Observation).
public struct UndoTree: Hashable, Sendable {
    /// A node's identity: stable while its step exists, whichever stack or branch it is on,
    /// and saved with the history (``UndoHistory``). Larger ids were recorded later.
    public struct NodeID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
        /// The id's number, for storage or display.
        ///
        /// ```swift
        /// tree.current?.rawValue   // 3: the third step recorded
        /// ```
        public let rawValue: UInt64

        /// Wraps a number read back from storage.
        ///
        /// ```swift
        /// let id = UndoTree.NodeID(rawValue: 3)
        /// ```
        public init(rawValue: UInt64) {
            self.rawValue = rawValue
        }

        /// Orders by recording time: the smaller id was recorded first.
        ///
        /// ```swift
        /// UndoTree.NodeID(rawValue: 1) < UndoTree.NodeID(rawValue: 2)   // true
        /// ```
        public static func < (lhs: NodeID, rhs: NodeID) -> Bool {
            lhs.rawValue < rhs.rawValue
        }

        /// The number, as `#3`.
        ///
        /// ```swift
        /// "\(UndoTree.NodeID(rawValue: 3))"   // "#3"
        /// ```
        public var description: String { "#\(rawValue)" }

        public init(from decoder: any Decoder) throws {
            rawValue = try decoder.singleValueContainer().decode(UInt64.self)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }
    }

    /// One step of the history.
    ///
    /// ```swift
    /// let node = tree.nodes.last!
    /// print(node.actionName, node.date ?? "", node.children.count)
    /// ```
    public struct Node: Hashable, Sendable, Identifiable {
        /// The step's identity (see ``NodeID``).
        public let id: NodeID
        /// The step's action name, `""` if none was set.
        public let actionName: String
        /// When the step's group closed; `nil` for a step recorded before the manager began
        /// recording its tree (see ``UndoManager/historyTree``).
        public let date: Date?
        /// The step that was current when this one was recorded; `nil` for a step recorded at
        /// the start (or whose parent was trimmed away).
        public let parent: NodeID?
        /// The steps recorded after this one was current, oldest first: one without
        /// branches, more where an edit after undoing started a new branch.
        public let children: [NodeID]
        /// Whether the step is stale: a part it touched changed elsewhere since it was last
        /// done, undone or redone (see ``UndoManager/noteChanges(to:origin:)``).
        public let isStale: Bool
    }

    /// Every node, parents before their children and siblings oldest first (a depth-first
    /// walk, the order a History panel lists them in).
    ///
    /// ```swift
    /// tree.nodes.map(\.actionName)   // ["Add “Milk”", "Add “Eggs”", "Add “Tea”"]
    /// ```
    public let nodes: [Node]

    /// The node whose state the model is in: the step ``UndoManager/undo()`` would revert.
    /// `nil` before the first step (everything undone, or nothing recorded).
    ///
    /// ```swift
    /// tree.current.map { tree[$0].actionName } ?? "(start)"
    /// ```
    public let current: NodeID?

    /// The nodes recorded at the start (whose ``Node/parent`` is `nil`), oldest first.
    ///
    /// ```swift
    /// tree.roots.count   // 1 unless an edit was made after undoing everything
    /// ```
    public let roots: [NodeID]

    /// The nodes ``UndoManager/redo()`` would reach, the next one first: the redo steps.
    /// Every node neither on it nor on ``path(to:)`` of ``current`` is on a branch, which only
    /// ``UndoManager/go(to:)`` reaches.
    ///
    /// ```swift
    /// tree.redoPath.map { tree[$0].actionName } == manager.redoActionNames   // true
    /// ```
    public let redoPath: [NodeID]

    /// Every node's id, ascending, and its place in ``nodes``: a lookup is a binary search.
    private let sortedIDs: [NodeID]
    private let positions: [Int]

    struct Step {
        var id: NodeID
        var parent: NodeID?
        var actionName: String
        var date: Date?
        var isStale = false
    }

    /// The tree of `steps`, sorted by id; a step whose parent is not among them is a root.
    /// O(steps × log steps), one allocation per node with children.
    init(stepsSortedByID steps: [Step], current: NodeID?, redoPath: [NodeID]) {
        let count = steps.count
        let ids = steps.map(\.id)
        // Children, as index ranges into one array (filled in id order, so oldest first).
        var parentIndex = [Int](repeating: -1, count: count)
        var childCounts = [Int](repeating: 0, count: count + 1)
        for index in 0..<count {
            if let parent = steps[index].parent, let found = Self.search(parent, in: ids) {
                parentIndex[index] = found
                childCounts[found + 1] += 1
            }
        }
        var childStart = childCounts
        for index in 0..<count {
            childStart[index + 1] += childStart[index]
        }
        var fill = childStart
        var childIndices = [Int](repeating: 0, count: childStart[count])
        for index in 0..<count where parentIndex[index] >= 0 {
            childIndices[fill[parentIndex[index]]] = index
            fill[parentIndex[index]] += 1
        }
        // Depth first, parents before children, siblings oldest first.
        var rootIndices: [Int] = []
        for index in 0..<count where parentIndex[index] < 0 {
            rootIndices.append(index)
        }
        var ordered: [Node] = []
        ordered.reserveCapacity(count)
        var positions = [Int](repeating: 0, count: count)
        var pending = Array(rootIndices.reversed())
        while let index = pending.popLast() {
            let children = childIndices[childStart[index]..<childStart[index + 1]]
            positions[index] = ordered.count
            let step = steps[index]
            ordered.append(Node(
                id: step.id,
                actionName: step.actionName,
                date: step.date,
                parent: step.parent,
                children: children.map { ids[$0] },
                isStale: step.isStale
            ))
            pending.append(contentsOf: children.reversed())
        }
        self.nodes = ordered
        self.current = current
        self.roots = rootIndices.map { ids[$0] }
        self.redoPath = redoPath
        self.sortedIDs = ids
        self.positions = positions
    }

    private static func search(_ id: NodeID, in ids: [NodeID]) -> Int? {
        var low = 0
        var high = ids.count
        while low < high {
            let middle = (low + high) / 2
            if ids[middle] < id {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low < ids.count && ids[low] == id ? low : nil
    }

    private func position(of id: NodeID) -> Int? {
        Self.search(id, in: sortedIDs).map { positions[$0] }
    }

    /// The node with this id.
    ///
    /// ```swift
    /// let parent = tree[node.parent!]
    /// ```
    ///
    /// - Precondition: The id is one of this tree's.
    public subscript(id: NodeID) -> Node {
        guard let index = position(of: id) else {
            fatalError("UndoTree: no node \(id) in this tree\nFix: look ids up in the tree they came from, or use node(_:)")
        }
        return nodes[index]
    }

    /// The node with this id, or `nil` if the tree has none (it was trimmed or removed).
    ///
    /// ```swift
    /// if let saved = tree.node(savedID) { manager.go(to: saved) }
    /// ```
    public func node(_ id: NodeID) -> Node? {
        position(of: id).map { nodes[$0] }
    }

    /// How many ancestors the node has: 0 for a root. For indenting a drawn tree.
    ///
    /// ```swift
    /// String(repeating: "  ", count: tree.depth(of: node)) + node.actionName
    /// ```
    public func depth(of node: Node) -> Int {
        var depth = 0
        var parent = node.parent
        while let id = parent, let index = position(of: id) {
            depth += 1
            parent = nodes[index].parent
        }
        return depth
    }

    /// The nodes from a root down to `id`, inclusive: the steps a redo from the start would
    /// perform to reach it. Empty for `nil`.
    ///
    /// ```swift
    /// tree.path(to: tree.current).map(\.actionName)   // what undo() would revert, oldest first
    /// ```
    public func path(to id: NodeID?) -> [Node] {
        var path: [Node] = []
        var next = id
        while let id = next, let index = position(of: id) {
            path.append(nodes[index])
            next = nodes[index].parent
        }
        return path.reversed()
    }

    /// Whether the tree has no nodes.
    ///
    /// ```swift
    /// UndoManager().historyTree.isEmpty   // true
    /// ```
    public var isEmpty: Bool { nodes.isEmpty }

    public static func == (lhs: UndoTree, rhs: UndoTree) -> Bool {
        lhs.nodes == rhs.nodes && lhs.current == rhs.current && lhs.redoPath == rhs.redoPath
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(nodes)
        hasher.combine(current)
        hasher.combine(redoPath)
    }
}
