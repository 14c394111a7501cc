// A library in pattern (b), with the per-file alternative to the typealias: a scoped import of
// UndoKit's class, which takes precedence over the whole-module imports of the file, Apple's
// Foundation included. Nothing is declared in the module, so its public API can say
// `UndoManager` and its clients, which import Apple's Foundation, still see only Apple's.
import Foundation
import AppleFoundation
import class UndoKit.UndoManager

public final class Document {
    public let undoManager = UndoManager()
    public private(set) var title = ""

    public init() {}

    public func rename(to newTitle: String) {
        let old = title
        title = newTitle
        undoManager.registerUndo(withTarget: self) { $0.rename(to: old) }
        undoManager.setActionName("Rename")
    }
}
