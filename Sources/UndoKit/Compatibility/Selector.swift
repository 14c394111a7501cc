#if !canImport(ObjectiveC)
/// The name of a method, as the Objective-C runtime identifies one: the smallest stand-in
/// that lets code written for Apple platforms mention the selector-based undo API.
///
/// UndoKit cannot send one: ``UndoManager/registerUndo(withTarget:selector:object:)`` exists
/// so that a subclass overriding it compiles, and its base implementation stops the program.
/// `#selector(...)` needs the runtime; a string names a selector:
///
/// ```swift
/// final class QuietUndoManager: UndoManager {
///     // Drops selector-based registrations, as some AppKit subclasses do.
///     override func registerUndo(withTarget target: Any, selector: Selector, object anObject: Any?) {}
/// }
/// let selector: Selector = "setTitle:"
/// ```
///
/// A module that declares a `Selector` of its own keeps using its own: names declared in a
/// module shadow imported ones. It spells this one `UndoKit.Selector`.
public struct Selector: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The selector's name, for example `"setTitle:"`.
    ///
    /// ```swift
    /// Selector("setTitle:").name   // "setTitle:"
    /// ```
    public let name: String

    /// Makes a selector from its name.
    ///
    /// ```swift
    /// let selector = Selector("setTitle:")
    /// ```
    public init(_ name: String) {
        self.name = name
    }

    /// Makes a selector from a string literal.
    ///
    /// ```swift
    /// let selector: Selector = "setTitle:"
    /// ```
    public init(stringLiteral name: String) {
        self.name = name
    }

    /// The selector's name.
    ///
    /// ```swift
    /// print(Selector("undo:"))   // undo:
    /// ```
    public var description: String { name }
}
#endif
