// Stand-in for what UIKit declares that UndoKit also declares where UIKit does not exist:
// the run loop mode of touch tracking. UndoKit declares it only `#if !canImport(UIKit)`. Like
// UIKit, this module re-exports Foundation's Apple-only names.
@_exported import AppleFoundation
import Foundation

extension RunLoop.Mode {
    /// UIKit's `UITrackingRunLoopMode`.
    public static let tracking = RunLoop.Mode("UITrackingRunLoopMode")
}
