import Foundation
import Testing
import UndoKit

// Subclasses in the shape of real Apple-platform code that mentions the Objective-C-only
// API: a text view's coalescing manager that closes its groups in AppKit's and UIKit's
// tracking modes too, a manager that drops selector-based registrations from a framework by
// overriding them as a no-op, and one that logs `prepare(withInvocationTarget:)`.

private final class CoalescingTextUndoManager: UndoManager {
    override init() {
        super.init()
        groupsByEvent = true
        #if os(macOS)
        runLoopModes = [.default, .eventTracking, .modalPanel]
        #else
        runLoopModes = [.default, .eventTracking, .modalPanel, .tracking]
        #endif
    }
}

private final class SelectorDroppingUndoManager: UndoManager {
    private(set) var dropped: [Selector] = []

    override func registerUndo(withTarget target: Any, selector: Selector, object anObject: Any?) {
        dropped.append(selector)   // a framework's selector-based registration, ignored
    }
}

private final class LoggingUndoManager: UndoManager {
    private(set) var log: [String] = []

    override func prepare(withInvocationTarget target: Any) -> Any {
        log.append("prepare \(type(of: target))")
        return target
    }
}

/// Calls the Objective-C-only members through a protocol, as a framework's generic code would,
/// without naming the deprecated declarations at the call site.
private protocol SelectorBasedRegistration {
    func registerUndo(withTarget target: Any, selector: Selector, object anObject: Any?)
    func prepare(withInvocationTarget target: Any) -> Any
}
extension UndoManager: SelectorBasedRegistration {}

@Suite("Ported code: the Objective-C-only API and the application run loop modes")
struct ObjectiveCOnlyAPITests {
    final class Field { var text = "" }

    @Test("AppKit's and UIKit's modes exist with Apple's raw values")
    func modes() {
        #expect(RunLoop.Mode.eventTracking.rawValue == "NSEventTrackingRunLoopMode")
        #expect(RunLoop.Mode.modalPanel.rawValue == "NSModalPanelRunLoopMode")
        #expect(RunLoop.Mode.tracking.rawValue == "UITrackingRunLoopMode")
    }

    @Test("A manager whose runLoopModes include the tracking modes ends events ticked in them")
    func trackingModeEndsTheEvent() {
        let manager = CoalescingTextUndoManager()
        manager.notificationCenter = nil
        let field = Field()
        manager.registerUndo(withTarget: field) { $0.text = "" }
        manager.runLoop.tick(mode: .eventTracking)
        #expect(manager.undoCount == 1)
        manager.registerUndo(withTarget: field) { $0.text = "a" }
        manager.runLoop.tick(mode: .tracking)
        #expect(manager.undoCount == 2)
    }

    @Test("Overrides of the selector-based API compile and run")
    func overrides() {
        let dropping = SelectorDroppingUndoManager()
        let registration: SelectorBasedRegistration = dropping
        registration.registerUndo(withTarget: Field(), selector: "setText:", object: "old")
        #expect(dropping.dropped == [Selector("setText:")])
        #expect(!dropping.canUndo)

        let logging = LoggingUndoManager()
        let proxy = (logging as SelectorBasedRegistration).prepare(withInvocationTarget: Field())
        #expect(proxy is Field)
        #expect(logging.log == ["prepare Field"])
    }

    @Test("The base registerUndo(withTarget:selector:object:) stops with the closure API as the fix")
    func selectorRegistrationTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            final class Target {}
            let registration: SelectorBasedRegistration = UndoManager()
            registration.registerUndo(withTarget: Target(), selector: "undo:", object: nil)
        }
        let stderr = result.standardErrorText
        #expect(stderr.contains("registerUndo(withTarget:selector:object:)"))
        #expect(stderr.contains("needs the Objective-C runtime"))
        #expect(stderr.contains("Fix: use registerUndo(withTarget:handler:) with a closure"))
    }

    @Test("The base prepare(withInvocationTarget:) stops with the closure API as the fix")
    func prepareTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            final class Target {}
            let registration: SelectorBasedRegistration = UndoManager()
            _ = registration.prepare(withInvocationTarget: Target())
        }
        let stderr = result.standardErrorText
        #expect(stderr.contains("prepare(withInvocationTarget:)"))
        #expect(stderr.contains("Fix: use registerUndo(withTarget:handler:) with a closure"))
    }
}
