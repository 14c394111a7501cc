/// The successive values of a value-type model, with a position to step back and forth.
///
/// A history starts with one value, its ``current`` value. ``add(_:)`` records a new current
/// value; ``previous()`` and ``next()`` move through what was recorded, like undo and redo:
///
/// ```swift
/// var display = ValueHistory(0)
/// display.add(12)
/// display.add(12)          // equal to current: ignored
/// display.add(42)
/// display.previous()       // 12
/// display.previous()       // 0
/// display.previous()       // nil: already at the oldest value, nothing changes
/// display.next()           // 12
/// display.add(7)           // drops 42, which came after 12
/// display.hasNext          // false
/// ```
///
/// A plain value with no tie to ``UndoManager``, for a model that is one value the user steps
/// through; see <doc:KeepingAValueHistory>. Neighbouring values are never equal, so every
/// successful ``previous()`` or ``next()`` changes ``current``.
public struct ValueHistory<Value: Equatable>: Equatable {
    // Oldest first, never empty, and no two neighbours equal.
    var values: [Value]
    // Always a valid index of `values`.
    var currentIndex: Int

    /// The most values the history keeps, the current one included, or `nil` for no limit.
    ///
    /// ```swift
    /// let history = ValueHistory("draft", limit: 50)
    /// history.limit   // 50: the current value and up to 49 to go back to
    /// ```
    public let limit: Int?

    /// Creates a history whose only value is `initial`.
    ///
    /// `limit` counts values, the current one included: the oldest go to make room.
    ///
    /// ```swift
    /// var history = ValueHistory(0, limit: 3)
    /// for value in 1...5 { history.add(value) }
    /// history.undoCount   // 2: the history holds 3, 4 and 5
    /// ```
    ///
    /// - Precondition: `limit` is `nil` or at least 1.
    public init(_ initial: Value, limit: Int? = nil) {
        if let limit, limit < 1 {
            fatalError(  // not precondition: release builds keep the message
                "ValueHistory(_:limit:): limit must be at least 1 (the current value counts), got \(limit)\n"
                    + "Fix: pass nil for an unbounded history, or the number of values to keep, current one included "
                    + "(2 keeps one undo)"
            )
        }
        self.init(values: [initial], currentIndex: 0, limit: limit)
    }

    init(values: [Value], currentIndex: Int, limit: Int?) {
        self.values = values
        self.currentIndex = currentIndex
        self.limit = limit
    }

    /// The value at the current position.
    ///
    /// ```swift
    /// var history = ValueHistory("a")
    /// history.add("b")
    /// history.current   // "b"
    /// ```
    public var current: Value {
        values[currentIndex]
    }

    /// Whether ``previous()`` has an older value to move to.
    ///
    /// ```swift
    /// var history = ValueHistory(1)
    /// history.hasPrevious   // false
    /// history.add(2)
    /// history.hasPrevious   // true
    /// ```
    public var hasPrevious: Bool {
        currentIndex > 0
    }

    /// Whether ``next()`` has a newer value to move to.
    ///
    /// ```swift
    /// var history = ValueHistory(1)
    /// history.add(2)
    /// history.previous()
    /// history.hasNext   // true
    /// ```
    public var hasNext: Bool {
        currentIndex < values.count - 1
    }

    /// How many times ``previous()`` can move back.
    ///
    /// ```swift
    /// var history = ValueHistory(1)
    /// history.add(2)
    /// history.add(3)
    /// history.undoCount   // 2
    /// ```
    public var undoCount: Int {
        currentIndex
    }

    /// How many times ``next()`` can move forward.
    ///
    /// ```swift
    /// history.previous()
    /// history.previous()
    /// history.redoCount   // 2
    /// ```
    public var redoCount: Int {
        values.count - 1 - currentIndex
    }

    /// Moves back to the previous value and returns it, the new ``current``.
    ///
    /// At the oldest value it changes nothing and returns `nil`, like an undo with nothing
    /// to undo.
    ///
    /// ```swift
    /// var history = ValueHistory(1)
    /// history.add(2)
    /// history.previous()   // 1
    /// history.previous()   // nil, and history.current is still 1
    /// ```
    ///
    /// - Complexity: O(1).
    @discardableResult
    public mutating func previous() -> Value? {
        guard hasPrevious else { return nil }
        currentIndex -= 1
        return current
    }

    /// Moves forward to the next value and returns it, the new ``current``.
    ///
    /// At the newest value it changes nothing and returns `nil`.
    ///
    /// ```swift
    /// var history = ValueHistory(1)
    /// history.add(2)
    /// history.previous()
    /// history.next()   // 2
    /// history.next()   // nil, and history.current is still 2
    /// ```
    ///
    /// - Complexity: O(1).
    @discardableResult
    public mutating func next() -> Value? {
        guard hasNext else { return nil }
        currentIndex += 1
        return current
    }

    /// Makes `value` the current value, unless it equals the current one.
    ///
    /// Drops the values ``next()`` would move to, as a new edit clears redo, and beyond
    /// ``limit`` the oldest.
    ///
    /// ```swift
    /// var history = ValueHistory("a")
    /// history.add("b")
    /// history.previous()   // "a"
    /// history.add("a")     // equal to current: nothing happens, "b" is still next
    /// history.add("c")     // drops "b"
    /// history.hasNext      // false
    /// ```
    ///
    /// - Complexity: O(*k*) to drop *k* newer values, plus O(``limit``) when the history is
    ///   full and drops its oldest value.
    public mutating func add(_ value: Value) {
        guard value != current else { return }
        values.removeSubrange((currentIndex + 1)...)
        values.append(value)
        if let limit, values.count > limit {
            values.removeFirst(values.count - limit)
        }
        currentIndex = values.count - 1
    }
}

extension ValueHistory: Hashable where Value: Hashable {}

extension ValueHistory: Encodable where Value: Encodable {}

extension ValueHistory {
    enum CodingKeys: String, CodingKey {
        case values, currentIndex, limit
    }
}

extension ValueHistory: Sendable where Value: Sendable {}
