import Dispatch

/// Whether the caller runs on the main dispatch queue, which is where the main actor runs.
///
/// Not `Thread.isMainThread`: on Linux, once `dispatchMain()` has run (as it does for a
/// program whose `main` is `async`), the main queue, and with it every main-actor job, is
/// drained by a worker thread, not by the main thread (measured with Swift 6.3.1: a
/// `Task { @MainActor in … }` reports `Thread.isMainThread == false`). libdispatch answers the
/// question exactly through a queue-specific value, which is visible to work running on the
/// main queue, whatever thread drains it, and to the main thread before `dispatchMain()`.
enum MainQueue {
    /// Marks the main queue once, on first use. The key is never written again; the value it
    /// marks the queue with is a constant.
    private static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    /// Whether the current code runs on the main queue (and so on the main actor).
    static var isCurrent: Bool {
        DispatchQueue.getSpecific(key: key) == true
    }
}

/// Carries a weak reference to an object confined to the main queue into the `@Sendable`
/// blocks the main queue runs.
///
/// Why `@unchecked Sendable` is safe: `_object` is written only by `init`, before the reference
/// is shared, and read only through ``object``, which first traps unless the caller runs on the
/// main queue, the one serial queue that ever touches the object (the runtime zeroes a weak
/// reference atomically, so its owner's deallocation is no race either).
final class MainQueueBoundReference<Object: AnyObject>: @unchecked Sendable {
    private weak var _object: Object?

    init(_ object: Object) {
        self._object = object
    }

    var object: Object? {
        precondition(MainQueue.isCurrent, "a main-queue-bound reference was used off the main queue")
        return _object
    }
}
