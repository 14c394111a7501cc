/// What each step touched, and changes made elsewhere (spec K2): the two halves of knowing
/// whether a step is still safe to undo.
extension UndoManager {
    /// Declares parts of the model that the step being recorded changes: the open top-level
    /// group, the one ``setActionName(_:)`` names. Parts add up: each registration may
    /// declare the parts it touches.
    ///
    /// A step that declares no parts counts as touching every part: once changes are noted
    /// (``noteChanges(to:origin:)``), any change makes it stale. So code that never declares
    /// parts never undoes over someone else's work under the ``StaleStepPolicy/refuse`` or
    /// ``StaleStepPolicy/skip`` policy; declaring parts lets it undo what nobody touched.
    ///
    /// ```swift
    /// manager.registerUndo(withTarget: list) { $0.rename(item, to: oldTitle) }
    /// manager.setActionName("Rename")
    /// manager.addActionParts(UndoPart("item", item.id))
    /// ```
    ///
    /// - Precondition: A group is open, or the manager groups by event (which opens one), as
    ///   for ``setActionName(_:)``.
    public func addActionParts(_ parts: UndoPart...) {
        addActionParts(parts)
    }

    /// Declares parts of the model that the step being recorded changes; see
    /// ``addActionParts(_:)-(UndoPart...)``.
    ///
    /// ```swift
    /// manager.addActionParts(selection.map { UndoPart("item", $0.id) })
    /// ```
    public func addActionParts(_ parts: some Sequence<UndoPart>) {
        guard let metadata = metadataOfOpenTopGroup(
            in: "addActionParts(_:)", "must begin a group before declaring the parts an action touches"
        ) else { return }
        // An empty selection declares nothing, as a command's empty undoParts does: the step
        // still counts as touching every part, not none. And while undoing or redoing, the
        // step is one recorded before: if it touched every part (a coalesced step, half of
        // which declared nothing), the parts its inverse declares must not narrow that.
        let parts = Set(parts)
        guard !parts.isEmpty, !(isBusy && metadata.parts == nil) else { return }
        metadata.parts = (metadata.parts ?? []).union(parts)
        publishObservableChanges()
    }

    /// The parts the step ``undo()`` would undo declared; `nil` if there is none, or it
    /// declared none (it counts as touching every part).
    ///
    /// ```swift
    /// manager.undoActionParts   // [item:4]
    /// ```
    public var undoActionParts: Set<UndoPart>? {
        nextStep(onUndoStack: true).flatMap { $0.metadata?.parts }
    }

    /// The parts the step ``redo()`` would redo declared; `nil` if there is none, or it
    /// declared none.
    ///
    /// ```swift
    /// manager.redoActionParts   // [item:4]
    /// ```
    public var redoActionParts: Set<UndoPart>? {
        nextStep(onUndoStack: false).flatMap { $0.metadata?.parts }
    }

    /// Tells the manager that `parts` changed outside it: another person's edit, another
    /// process's save, a server's broadcast, a replica's remote update. Every undo and redo
    /// step that touched one of them (and every step that declared no parts) becomes stale,
    /// until it runs; what the manager does with a stale step is its ``staleStepPolicy``.
    ///
    /// Costs one dictionary write per part, whatever the length of the history.
    ///
    /// ```swift
    /// replica.onRemoteChange { changedIDs, author in
    ///     manager.noteChanges(to: changedIDs.map { UndoPart("item", $0) }, origin: author)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - parts: The parts that changed.
    ///   - origin: Who or what changed them, reported by ``staleUndoStep`` and
    ///     ``staleRedoStep``: a person's name, a process, a server.
    public func noteChanges(to parts: some Sequence<UndoPart>, origin: String? = nil) {
        notingChanges { $0.note(parts, origin: origin) }
    }

    /// Tells the manager that its model changed outside it in ways nobody named (another
    /// process replaced the file): every undo and redo step becomes stale.
    ///
    /// ```swift
    /// manager.noteChangesToAllParts(origin: "another window")
    /// ```
    public func noteChangesToAllParts(origin: String? = nil) {
        notingChanges { $0.noteAllParts(origin: origin) }
    }

    private func notingChanges(_ note: (inout PartChangeLog) -> Bool) {
        let hadLog = state.partLog != nil
        startPartLog()
        guard note(&state.partLog!) else {
            // A change to no part changes nothing: a log started for it goes again.
            if !hadLog {
                state.partLog = nil
                updateStepEditRecording()
                updateStaleStepChecks()
            }
            return
        }
        noteTimeIfStepIsOpen()
        publishObservableChanges()
    }

    /// Makes the log of changes noted from outside, at its first use (a note, or a restored
    /// stale step): from then on step edits are recorded for it, and the policy is applied.
    func startPartLog() {
        guard state.partLog == nil else { return }
        state.partLog = PartChangeLog()
        updateStepEditRecording()
        updateStaleStepChecks()
    }

    /// The step an undo (`onUndoStack`) or redo would reach first and its metadata; `nil` if
    /// that stack holds no step, or a group is open on the undo stack (closing it makes the
    /// next undo a new step, which nothing can have changed since).
    func nextStep(onUndoStack: Bool) -> (id: StepID, metadata: GroupMetadata?)? {
        guard undoStack.nesting == 0 else { return nil }
        if onUndoStack {
            return undoStack.steps.last.map { ($0, undoStack.topMetadata) }
        }
        return redoStack.steps.last.map { ($0, redoStack.topMetadata) }
    }
}
