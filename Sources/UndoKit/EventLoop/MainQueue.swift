import Dispatch

/// Whether the caller runs on the main dispatch queue, which is where the main actor runs.
///
/// Not `Thread.isMainThread`: on Linux, once `dispatchMain()` has run (an `async` `main`),
/// a worker thread drains the main queue and every main-actor job (Swift 6.3.1). A
/// queue-specific value answers exactly, whatever thread drains the queue.
enum MainQueue {
    /// Marks the main queue once, on first use, with a constant.
    private static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    /// Whether the caller runs on the main queue (and so on the main actor).
    static var isCurrent: Bool {
        DispatchQueue.getSpecific(key: key) == true
    }
}
