extension UndoManager {
    /// The manager's events as an asynchronous sequence: the events ``addEventObserver(_:)``
    /// delivers, in the same order, for a task to consume at its own pace.
    ///
    /// Each call returns a stream of its own, buffering every event until consumed. It ends
    /// when the manager is deallocated or the iterating task is cancelled; it does not keep
    /// the manager alive, nor need ``notificationCenter`` or typed messages.
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
        state.eventObservers.append((id, { [weak self] event in
            // Removed here, on the manager's isolation (a termination handler may run anywhere).
            if case .terminated = continuation.yield(event) {
                self?.removeObserver(id: id)
            }
        }))
        return stream
    }

    /// The manager is going away: ends every stream ``events()`` returned.
    func finishEventStreams() {
        for stream in state.eventStreams {
            stream.continuation.finish()
        }
    }
}
