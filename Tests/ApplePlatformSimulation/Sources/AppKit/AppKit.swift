// Stand-in for what AppKit declares that UndoKit also declares where AppKit does not exist:
// the run loop modes a text view puts in its undo manager's `runLoopModes`. UndoKit declares
// them only `#if !canImport(AppKit)`. Like AppKit, this module re-exports Foundation's
// Apple-only names.
@_exported import AppleFoundation
import Foundation

extension RunLoop.Mode {
    /// AppKit's `NSEventTrackingRunLoopMode`.
    public static let eventTracking = RunLoop.Mode("NSEventTrackingRunLoopMode")
    /// AppKit's `NSModalPanelRunLoopMode`.
    public static let modalPanel = RunLoop.Mode("NSModalPanelRunLoopMode")
}
