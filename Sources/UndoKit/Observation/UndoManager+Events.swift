extension UndoManager {
    /// The manager's events as an asynchronous sequence: the events ``addEventObserver(_:)``
    /// delivers, in the same order, for a task to consume at its own pace.
    ///
    /// Each call returns a stream of its own, which buffers every event from the call on
    /// until it is consumed. It ends when the manager is deallocated, and when the task
    /// iterating it is cancelled (the manager then drops it at its next event). It does not
    /// keep the manager alive, and it does not depend on ``notificationCenter`` or on typed
    /// messages: it works with both off, on any isolation that owns the manager.
    ///
    /// ```swift
    /// let manager = UndoManager()
    /// let watcher = Task {
    ///     for await event in manager.events() {
    ///         if case .didUndoChange = event { print("undone") }
    ///     }
    /// }
    /// ```
    ///
    /// The events are produced where the manager runs: call it from the isolation that owns
    /// the manager (an actor's method, the main actor), and iterate anywhere.
    public func events() -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .unbounded)
        let id = makeObserverID()
        state.eventStreams.append((id, continuation))
        eventObservers.append((id, { [weak self] event in
            // A stream whose consumer is gone reports it here, on the manager's isolation,
            // where the observer may be removed (its termination handler may run anywhere).
            if case .terminated = continuation.yield(event) {
                self?.removeObserver(id: id)
            }
        }))
        return stream
    }

    /// Ends every stream ``events()`` returned; the manager is going away.
    func finishEventStreams() {
        for stream in state.eventStreams {
            stream.continuation.finish()
        }
    }
}
