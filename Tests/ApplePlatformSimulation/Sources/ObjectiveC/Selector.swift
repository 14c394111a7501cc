// Stand-in for Apple's `ObjectiveC` module, which Apple's Foundation re-exports: its
// `Selector`, which UndoKit declares only `#if !canImport(ObjectiveC)`.

/// Apple's `Selector` (ObjectiveC module): the name of a method.
public struct Selector: Hashable, Sendable, ExpressibleByStringLiteral {
    let name: String
    public init(_ name: String) { self.name = name }
    public init(stringLiteral name: String) { self.name = name }
}
