import Foundation
import UndoKit

/// W7: W1 with notifications posted to `NotificationCenter.default` (Apple's default)
/// versus `notificationCenter = nil`, to show what posting costs.
///
/// The two variants alternate inside each repetition so machine noise lands on both alike.
/// Nobody observes during the timed loops: that is the cheapest posting can be, and any
/// observer an app adds costs extra on top.
enum NotificationWorkload {
    static func w7(n: Int, repetition: Int) throws(BenchmarkFailure) -> RepetitionResult {
        if repetition == 0 { try checkThatPostingFollowsTheSetting() }
        var result = try GroupingWorkloads.w1(
            n: n, repetition: repetition, postsNotifications: true, phaseSuffix: "_on")
        let off = try GroupingWorkloads.w1(
            n: n, repetition: repetition, postsNotifications: false, phaseSuffix: "_off")
        result.phases += off.phases
        // W1 reports bytes per action; here the second variant would reuse the first's freed
        // memory, so neither figure would mean what W1's does.
        result.extras = [:]
        return result
    }

    /// Without this, a manager that silently never posts would make "on" look free.
    private static func checkThatPostingFollowsTheSetting() throws(BenchmarkFailure) {
        for posts in [true, false] {
            let manager = Manager.forBenchmark(postsNotifications: posts)
            let counter = Counter(manager: manager)
            let tally = Tally()
            let token = NotificationCenter.default.addObserver(forName: nil, object: manager, queue: nil) { _ in
                tally.increment()
            }
            manager.beginUndoGrouping()
            counter.increment()
            manager.endUndoGrouping()
            manager.undo()
            manager.redo()
            NotificationCenter.default.removeObserver(token)
            let posted = tally.count
            try check(posts ? posted > 0 : posted == 0,
                      "W7: \(posted) notifications posted with notificationCenter \(posts ? "default" : "nil")")
        }
    }
}

/// Counts notifications. Sendable because observer blocks must be; the lock makes that
/// true even though every post here happens on the posting thread.
private final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func increment() {
        lock.lock()
        value += 1
        lock.unlock()
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}
