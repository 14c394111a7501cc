import Foundation

// AppKit's and UIKit's run loop modes (text views put them in `runLoopModes`), with Apple's
// raw values, where those frameworks do not exist, so that such code compiles unchanged.
#if !canImport(AppKit)
extension RunLoop.Mode {
    /// AppKit's mode while a control tracks the mouse: `NSEventTrackingRunLoopMode`.
    ///
    /// ```swift
    /// manager.runLoopModes = [.default, .eventTracking, .modalPanel]
    /// ```
    public static let eventTracking = RunLoop.Mode("NSEventTrackingRunLoopMode")

    /// AppKit's mode while a modal panel runs: `NSModalPanelRunLoopMode`.
    ///
    /// ```swift
    /// manager.runLoopModes = [.default, .modalPanel]
    /// ```
    public static let modalPanel = RunLoop.Mode("NSModalPanelRunLoopMode")
}
#endif

#if !canImport(UIKit)
extension RunLoop.Mode {
    /// UIKit's mode while a control tracks a touch: `UITrackingRunLoopMode`.
    ///
    /// ```swift
    /// manager.runLoopModes = [.default, .tracking]
    /// manager.runLoop.tick(mode: .tracking)   // ends the event while tracking
    /// ```
    public static let tracking = RunLoop.Mode("UITrackingRunLoopMode")
}
#endif
