/// A run that changed less than its step declared (spec K2, K4): the step keeps its parts
/// (what its undo may touch), and the others hear only of what this run changed.
extension UndoManager {
    /// Says which parts the run being recorded actually changed: the step being recorded, or,
    /// called from an action while ``undo()`` or ``redo()`` runs a step, that run. Pass `[]`
    /// when the run changed nothing. A per-member ``UndoCoordinator`` then notes only these
    /// parts on the other members (nothing for `[]`), instead of every part the step
    /// declared. The step's declared parts (``addActionParts(_:)-(UndoPart...)``) stay as they
    /// are. Holds for this run only; the last call wins.
    ///
    /// ```swift
    /// manager.registerUndo(withTarget: list) { $0.restore(item) }
    /// manager.addActionParts(UndoPart("item", item.id))
    /// if list[item.id] == nil {
    ///     manager.setActionChangedParts([])   // deleted meanwhile: this run changed nothing
    /// }
    /// ```
    ///
    /// - Precondition: As for ``setActionName(_:)``: a group is open, or the manager groups by
    ///   event.
    public func setActionChangedParts(_ parts: some Sequence<UndoPart>) {
        guard let metadata = metadataOfOpenTopGroup(
            in: "setActionChangedParts(_:)", "must begin a group before saying which parts an action changed"
        ) else { return }
        metadata.changedPartsOfRun = Set(parts)
    }
}

extension UndoManager {
    /// After an undo or redo ran a command step owned by `owner` (handler word `bits`): says
    /// the command's ``UndoableCommand/changedParts`` for the run, as ``perform(_:on:)`` does
    /// after `execute`. An undo reverts what the last `execute` changed, so the same parts; a
    /// redo executes again, and the command says afresh. `nil` says nothing: every part the
    /// step declared. Out of line: called only for a coordinated manager.
    @inline(never)
    func reportChangedPartsOfRun(ownedBy owner: UndoStepOwner, bits: UInt) {
        guard isBusy, registrationIsEnabled, currentStack.nesting > 0 else { return }
        guard let parts = unsafeDowncast(owner, to: CommandEntry.self).changedParts(bits: bits) else { return }
        currentStack.openTopMetadata().changedPartsOfRun = Set(parts)
    }
}

extension GroupMetadata {
    /// The parts the last run said it changed, once: the next run says again, or changes
    /// the declared parts.
    func takeChangedPartsOfRun() -> Set<UndoPart>? {
        defer { changedPartsOfRun = nil }
        return changedPartsOfRun
    }
}
