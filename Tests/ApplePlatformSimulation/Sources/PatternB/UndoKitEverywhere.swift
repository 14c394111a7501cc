import UndoKit

// Pattern (b): UndoKit's UndoManager on every platform. This one line makes `UndoManager`
// UndoKit's throughout this module, in every file, whatever the file imports: a module's own
// declarations shadow imported ones. Internal, so that the module does not export a second
// `UndoManager` to its clients.
typealias UndoManager = UndoKit.UndoManager
