import Foundation

/// Every step of an undo manager's history as a tree: what a History panel draws.
///
/// Take it from ``UndoManager/historyTree``. Each node is one top-level step (a closed undo
/// group); its parent is the step that was current when it was recorded, and `nil` for a
/// step recorded at the start. With ``UndoManager/keepsRedoBranches`` off (Apple's
/// behaviour) the tree is a single path: the undo steps, oldest first, then the redo steps.
/// With it on, a new edit made after undoing starts a new branch, and the steps it would have
/// discarded stay in the tree as an older branch.
///
/// ```swift
/// let tree = manager.historyTree
/// for node in tree.nodes {
///     let marker = node.id == tree.current ? "▸" : " "
///     print(marker, String(repeating: "  ", count: tree.depth(of: node)), node.actionName)
/// }
/// manager.go(to: tree.nodes.first)   // back to the state after the first step
/// ```
///
/// A tree is a value: it does not change when the manager does. Take a new one after each
/// change (``UndoManager`` is `Observable`, and reading this property is tracked).
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

    private let indexByID: [NodeID: Int]

    init(nodes: [Node], current: NodeID?, redoPath: [NodeID]) {
        var byID: [NodeID: Node] = [:]
        for node in nodes {
            byID[node.id] = node
        }
        let roots = nodes.filter { $0.parent == nil || byID[$0.parent!] == nil }.map(\.id).sorted()
        var ordered: [Node] = []
        ordered.reserveCapacity(nodes.count)
        var pending = roots.reversed().map { $0 }
        while let id = pending.popLast() {
            guard let node = byID[id] else { continue }
            ordered.append(node)
            pending.append(contentsOf: node.children.reversed())
        }
        self.nodes = ordered
        self.current = current
        self.roots = roots
        self.redoPath = redoPath
        var index: [NodeID: Int] = [:]
        for (offset, node) in ordered.enumerated() {
            index[node.id] = offset
        }
        indexByID = index
    }

    /// The node with this id.
    ///
    /// ```swift
    /// let parent = tree[node.parent!]
    /// ```
    ///
    /// - Precondition: The id is one of this tree's.
    public subscript(id: NodeID) -> Node {
        guard let index = indexByID[id] else {
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
        indexByID[id].map { nodes[$0] }
    }

    /// How many ancestors the node has: 0 for a root. For indenting a drawn tree.
    ///
    /// ```swift
    /// String(repeating: "  ", count: tree.depth(of: node)) + node.actionName
    /// ```
    public func depth(of node: Node) -> Int {
        var depth = 0
        var parent = node.parent
        while let id = parent, let index = indexByID[id] {
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
        while let id = next, let index = indexByID[id] {
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
