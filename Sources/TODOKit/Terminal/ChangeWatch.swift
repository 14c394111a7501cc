import Foundation

/// What a line reader watches while it waits for input: another process's change to the list,
/// so that a waiting session shows it within a second instead of at its next line.
///
/// The reader waits with `poll(2)` on its input and ``descriptor`` together; when there is no
/// descriptor, it wakes every ``interval`` instead (never busy: in between it sleeps in
/// `poll`). Each time the descriptor is readable or the interval has passed it asks
/// ``hasChanged`` (cheap, writes nothing), and only when that says yes does it make room for
/// ``show``, which takes the change, writes its lines and returns the prompt to draw now:
/// nothing is drawn while nothing changed. ``REPL`` makes one from its ``TODODatabase``
/// (``TODODatabase/changeDescriptor``, ``TODODatabase/changePollInterval``,
/// ``TODODatabase/hasChangedElsewhere()``).
///
/// ```swift
/// var changed = false
/// let watch = ChangeWatch(
///     descriptor: { nil },
///     interval: .milliseconds(250),
///     hasChanged: { changed },
///     show: {
///         changed = false
///         print("todo: the list changed on disk")
///         return "todo (1 item)> "
///     }
/// )
/// ```
public struct ChangeWatch {
    /// A descriptor that becomes readable when a change may have come, or `nil` to wake every
    /// ``interval``; asked at each wait, since a connection may be made again.
    public var descriptor: () -> Int32?
    /// How long to wait between two ``hasChanged`` calls when there is no descriptor.
    public var interval: Duration
    /// Whether another process changed the list since it was last shown; writes nothing.
    public var hasChanged: () -> Bool
    /// Takes the change, writes the lines that say what changed (each ending in a newline, on
    /// the row where the reader's prompt was), and returns the prompt as it is now.
    public var show: () -> String

    /// Creates a watch from its parts.
    public init(
        descriptor: @escaping () -> Int32?,
        interval: Duration,
        hasChanged: @escaping () -> Bool,
        show: @escaping () -> String
    ) {
        self.descriptor = descriptor
        self.interval = interval
        self.hasChanged = hasChanged
        self.show = show
    }

    /// When to ask ``hasChanged`` while waiting for input, for a reader that polls `input`.
    struct Waiting {
        let watch: ChangeWatch?
        /// Whether the descriptor is still worth polling: one that reported an error or a
        /// hang-up stays readable for ever, and would make the wait a busy loop.
        private var watchesDescriptor = true
        /// When the interval next ends, while there is no descriptor.
        private var nextCheck: ContinuousClock.Instant
        /// Whether the next wait asks first, before polling: a change may be known already
        /// without the descriptor being readable (PostgreSQL's client library keeps the
        /// notifications that came with a query's answer), at the start of a line and after a
        /// change was shown (showing reads the list).
        private var asksBeforeWaiting = true

        init(_ watch: ChangeWatch?) {
            self.watch = watch
            nextCheck = .now + (watch?.interval ?? .zero)
        }

        /// Waits until `input`, or one of `others`, is readable, or the watch is due. Returns
        /// the poll results for `input` and `others`, in order, and whether the watch is due
        /// (its descriptor was readable, its interval passed, or it is asked before waiting:
        /// then at once, with nothing ready); `nil` if `poll` failed other than by a signal
        /// (after a signal it returns with nothing ready).
        mutating func wait(input: Int32, others: [Int32] = []) -> (revents: [Int16], isDue: Bool)? {
            if asksBeforeWaiting, watch != nil {
                asksBeforeWaiting = false
                return (Array(repeating: 0, count: 1 + others.count), true)
            }
            var descriptors = ([input] + others).map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            var changeDescriptor: Int32?
            if let watch, watchesDescriptor {
                changeDescriptor = watch.descriptor()
            }
            if let changeDescriptor {
                descriptors.append(pollfd(fd: changeDescriptor, events: Int16(POLLIN), revents: 0))
            }
            var timeout: Int32 = -1
            if watch != nil, changeDescriptor == nil {
                timeout = Self.milliseconds(until: nextCheck)
            }
            let count = poll(&descriptors, nfds_t(descriptors.count), timeout)
            if count < 0 {
                guard errno == EINTR else { return nil }
                return (descriptors.prefix(1 + others.count).map { _ in 0 }, false)
            }
            var isDue = false
            if changeDescriptor != nil, let last = descriptors.last, last.revents != 0 {
                isDue = true
                if last.revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 {
                    watchesDescriptor = false
                    nextCheck = .now + (watch?.interval ?? .zero)
                }
            } else if watch != nil, changeDescriptor == nil, ContinuousClock.now >= nextCheck {
                // Asked even when input is ready too: a person typing faster than the interval
                // would otherwise never let it end.
                isDue = true
                nextCheck = .now + (watch?.interval ?? .zero)
            }
            return (descriptors.prefix(1 + others.count).map(\.revents), isDue)
        }

        /// Makes the next wait ask before polling: after a change was shown. The descriptor is
        /// polled again too: showing may have connected again, with a new one.
        mutating func askBeforeNextWait() {
            asksBeforeWaiting = true
            watchesDescriptor = true
        }

        /// Milliseconds from now to `instant`, at least 0, rounded up so that a wait does not
        /// end just before it and spin once more.
        private static func milliseconds(until instant: ContinuousClock.Instant) -> Int32 {
            let left = ContinuousClock.now.duration(to: instant)
            guard left > .zero else { return 0 }
            let (seconds, attoseconds) = left.components
            let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
            return Int32(clamping: milliseconds)
        }
    }
}
