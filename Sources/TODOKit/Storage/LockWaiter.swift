import Foundation

/// Waits for an exclusive `flock(2)` with a time limit.
///
/// `flock` either fails at once (`LOCK_NB`) or blocks without limit. Polling with `LOCK_NB`
/// would almost never win against a `todo` session that releases the lock between its lines
/// for only microseconds; a blocked `flock` is woken by the kernel the moment the lock is
/// released, and so gets its turn. So the waiting happens in a blocked `flock` on a helper
/// thread, on a duplicate of the descriptor (same open file description, so the lock it takes
/// is the caller's), while the caller waits for it with a timeout. If the caller gives up
/// first, the helper releases the lock as soon as it gets it.
final class LockWaiter: @unchecked Sendable {
    // Sendable by construction: `state` is only read or written with `mutex` held, and the
    // semaphore is thread-safe.
    private let mutex = NSLock()
    private var state = State.waiting
    private let finished = DispatchSemaphore(value: 0)

    private enum State {
        case waiting
        case acquired
        case failed(POSIX.Failure)
        case abandoned
    }

    /// Takes the lock on `descriptor`, waiting at most `timeout`; returns `false` if another
    /// holder kept it that long.
    static func acquire(_ descriptor: Int32, timeout: Duration) throws(POSIX.Failure) -> Bool {
        if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return true }
        guard errno == EWOULDBLOCK || errno == EINTR else { throw POSIX.Failure(errno: errno) }
        guard timeout > .zero else { return false }

        let helperDescriptor = POSIX.duplicate(descriptor)
        guard helperDescriptor >= 0 else { throw POSIX.Failure(errno: errno) }
        let waiter = LockWaiter()
        let thread = Thread { waiter.block(on: helperDescriptor) }
        thread.name = "todo lock waiter"
        thread.start()

        let (seconds, attoseconds) = timeout.components
        let nanoseconds = min(seconds, 86_400) * 1_000_000_000 + attoseconds / 1_000_000_000
        _ = waiter.finished.wait(timeout: .now() + .nanoseconds(Int(nanoseconds)))
        return try waiter.outcome()
    }

    private func block(on descriptor: Int32) {
        var failure: POSIX.Failure?
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                failure = POSIX.Failure(errno: errno)
                break
            }
        }
        mutex.lock()
        let abandoned: Bool
        if case .abandoned = state {
            abandoned = true
        } else {
            abandoned = false
            state = failure.map(State.failed) ?? .acquired
        }
        mutex.unlock()
        if abandoned && failure == nil {
            // The caller gave up and closed its descriptor; this one may be the last to the
            // open file description, but unlock explicitly in case it is not.
            _ = flock(descriptor, LOCK_UN)
        }
        _ = close(descriptor)
        finished.signal()
    }

    private func outcome() throws(POSIX.Failure) -> Bool {
        mutex.lock()
        defer { mutex.unlock() }
        switch state {
        case .acquired:
            return true
        case .failed(let failure):
            throw failure
        case .waiting, .abandoned:
            state = .abandoned
            return false
        }
    }
}
