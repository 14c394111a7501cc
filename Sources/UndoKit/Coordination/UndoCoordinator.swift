/// One undo order across several undo managers: undo reverts the most recent step of
/// whichever manager made it.
///
/// An app with several editable views, each with an undo manager of its own, wants the
/// Undo menu to follow the order in which the user edited, not the view that happens to be
/// focused. Attach the managers to a coordinator and route the menu to it:
///
/// ```swift
/// let loop = SimulatedRunLoop()          // one window, one event stream
/// let coordinator = UndoCoordinator()
/// let editors = (1...3).map { _ in TextEditor(undoManager: UndoManager(runLoop: loop)) }
/// for editor in editors {
///     coordinator.attach(editor.undoManager)
/// }
///
/// editors[0].type("Hello");   loop.tick()
/// editors[1].type("World");   loop.tick()
/// editors[0].type("!");       loop.tick()
///
/// coordinator.undoMenuItemTitle   // "Undo Typing", editor 1's "!"
/// coordinator.undo()              // editor 1: "!" goes
/// coordinator.undo()              // editor 2: "World" goes
/// coordinator.redo()              // editor 2: "World" is back
/// ```
///
/// The coordinator orders the top-level groups its managers close, undo and redo, and
/// ``undo()`` and ``redo()`` go through the owning manager's own ``UndoManager/undo()`` and
/// ``UndoManager/redo()``, so notifications, action names and everything else behave as they
/// would without it. Nothing has to go through the coordinator, though: the order stays true
/// when a manager is undone or redone directly, when ``UndoManager/removeAllActions()``,
/// ``UndoManager/removeAllActions(withTarget:)`` or ``UndoManager/levelsOfUndo`` drop groups,
/// when a new edit clears a manager's redo stack, and when a manager is detached or goes
/// away. The coordinator acts as one manager spanning its members: a new edit in any of them
/// ends redo for all of them, clearing the other members' redo stacks too, so the history stays
/// one line.
///
/// ``undo()`` and ``redo()`` first end the current event for every attached manager (see
/// ``UndoManager/endEventGroup()``), as ``UndoManager/undo()`` does for its own automatic
/// group, so that an edit still open counts as the most recent one.
///
/// The coordinator holds its managers weakly and observes them with
/// ``UndoManager/addEventObserver(_:)``, not `NotificationCenter`. Like ``UndoManager`` it is
/// not `Sendable`: use it in the isolation domain of its managers. See
/// <doc:CoordinatingUndoManagers>.
public final class UndoCoordinator {
    /// One attached manager.
    final class Member {
        weak var manager: UndoManager?
        var observation: UndoManager.EventObservation?
        /// When the member's newest top-level group opened, to end open event groups in the
        /// order they began.
        var groupOpenSerial: UInt64 = 0

        init(manager: UndoManager) {
            self.manager = manager
        }
    }

    /// A step in the global order: its manager, and its id there (see ``StepID``).
    struct Step: Equatable {
        let member: Member
        let id: StepID

        static func == (lhs: Step, rhs: Step) -> Bool {
            lhs.member === rhs.member && lhs.id == rhs.id
        }
    }

    var members: [Member] = []
    /// Undoable steps, oldest first; the last is what ``undo()`` reverts.
    var undoSteps: [Step] = []
    /// Undone steps, in the order they were undone; the last is what ``redo()`` performs.
    var redoSteps: [Step] = []
    var nextGroupOpenSerial: UInt64 = 0

    /// Creates a coordinator with no managers.
    ///
    /// ```swift
    /// let coordinator = UndoCoordinator()
    /// coordinator.canUndo   // false
    /// ```
    public init() {}

    deinit {
        for member in members {
            member.observation?.cancel()
        }
    }

    // MARK: Managers

    /// The attached managers that still exist, in the order they were attached.
    ///
    /// ```swift
    /// coordinator.attach(textManager)
    /// coordinator.attach(canvasManager)
    /// coordinator.managers   // [textManager, canvasManager]
    /// ```
    public var managers: [UndoManager] {
        members.compactMap(\.manager)
    }

    /// Adds a manager to the coordinated order.
    ///
    /// Groups already on the manager's stacks join the order as older than every step the
    /// coordinator already orders (their time relative to other managers' steps is not
    /// known); groups still open join when they close. A manager belongs to one coordinator
    /// at a time: attaching it here detaches it from the previous one. Attaching a manager
    /// twice does nothing.
    ///
    /// The coordinator keeps the manager weakly: a manager that goes away leaves the order.
    ///
    /// ```swift
    /// let manager = UndoManager(runLoop: windowLoop)
    /// coordinator.attach(manager)
    /// ```
    public func attach(_ manager: UndoManager) {
        if manager.coordinator === self { return }
        if manager.keepsRedoBranches {
            manager.programmerError(
                in: PublicCall("UndoCoordinator.attach(_:)"),
                "a manager that keeps redo branches cannot join a coordinator",
                fix: "set keepsRedoBranches to false before attaching (the coordinator orders steps as one "
                    + "sequence across its managers, which has no place for one manager's branches)"
            )
        }
        manager.coordinator?.detach(manager)
        let member = Member(manager: manager)
        // The steps it has join as the oldest; from now on its transactions hand the
        // coordinator what they did to its steps (UndoCoordinator+Edits.swift).
        undoSteps.insert(contentsOf: manager.undoStack.steps.ids.map { Step(member: member, id: $0) }, at: 0)
        redoSteps.insert(contentsOf: manager.redoStack.steps.ids.map { Step(member: member, id: $0) }, at: 0)
        member.observation = manager.addEventObserver { [weak self, weak member] event in
            guard let self, let member, event == .didOpenUndoGroup, member.manager?.undoStack.nesting == 1 else { return }
            self.nextGroupOpenSerial += 1
            member.groupOpenSerial = self.nextGroupOpenSerial
        }
        manager.coordinator = self
        members.append(member)
        manager.checkInvariantsInDebugBuilds()
    }

    /// Removes a manager and its steps from the coordinated order; the manager keeps its
    /// stacks. Does nothing if the manager is not attached.
    ///
    /// ```swift
    /// editorWillClose(editor)
    /// coordinator.detach(editor.undoManager)
    /// ```
    public func detach(_ manager: UndoManager) {
        guard let index = members.firstIndex(where: { $0.manager === manager }) else { return }
        let member = members.remove(at: index)
        member.observation?.cancel()
        manager.coordinator = nil
        undoSteps.removeAll { $0.member === member }
        redoSteps.removeAll { $0.member === member }
    }

    // MARK: Undo and redo

    /// Whether ``undo()`` would revert something: an attached manager has a step to undo,
    /// or an automatic group open that ``undo()`` would close and undo.
    ///
    /// Like ``UndoManager/canUndo`` it does not promise that the undo is allowed: a manager
    /// with an explicit group open stops the program when asked to undo.
    ///
    /// ```swift
    /// undoMenuItem.isEnabled = coordinator.canUndo
    /// ```
    public var canUndo: Bool {
        undoTarget != nil
    }

    /// Whether ``redo()`` would perform something: a step undone in an attached manager is
    /// still on that manager's redo stack.
    ///
    /// Unlike ``UndoManager/canRedo`` it posts no checkpoint.
    ///
    /// ```swift
    /// redoMenuItem.isEnabled = coordinator.canRedo
    /// ```
    public var canRedo: Bool {
        redoTarget != nil
    }

    /// Reverts the most recent step of all attached managers, through its manager's
    /// ``UndoManager/undo()``.
    ///
    /// First ends the current event for every attached manager whose automatic group can be
    /// closed (``UndoManager/endEventGroup()``), in the order those groups opened, so the
    /// newest of them is what gets undone. Does nothing when there is nothing to undo.
    ///
    /// ```swift
    /// editors[0].type("Hello");  loop.tick()
    /// editors[1].type("World");  loop.tick()
    /// coordinator.undo()   // editor 2's "World"
    /// coordinator.undo()   // editor 1's "Hello"
    /// ```
    ///
    /// - Precondition: The manager that made the step allows ``UndoManager/undo()``: no
    ///   explicit group is open in it, and it is not undoing or redoing.
    public func undo() {
        endEventGroups()
        dropGoneMembers()
        undoSteps.last?.member.manager?.undo()
    }

    /// Performs the most recently undone step of all attached managers, through its manager's
    /// ``UndoManager/redo()``.
    ///
    /// Like ``undo()``, first ends the current event for every attached manager. Does nothing
    /// when there is nothing to redo.
    ///
    /// ```swift
    /// coordinator.undo()   // editor 2's "World"
    /// coordinator.undo()   // editor 1's "Hello"
    /// coordinator.redo()   // "Hello" again
    /// coordinator.redo()   // "World" again
    /// ```
    ///
    /// - Precondition: The manager that undid the step is not undoing or redoing.
    public func redo() {
        endEventGroups()
        dropGoneMembers()
        redoSteps.last?.member.manager?.redo()
    }

    // MARK: Names and titles

    /// The action name of the step ``undo()`` would revert, or `""`.
    ///
    /// ```swift
    /// coordinator.undoActionName   // "Typing"
    /// ```
    public var undoActionName: String {
        undoTarget?.undoActionName ?? ""
    }

    /// The action name of the step ``redo()`` would perform, or `""`.
    ///
    /// ```swift
    /// coordinator.undo()
    /// coordinator.redoActionName   // "Typing"
    /// ```
    public var redoActionName: String {
        redoTarget?.redoActionName ?? ""
    }

    /// The title for an Undo menu item: "Undo" and the name of the step ``undo()`` would
    /// revert, or just "Undo".
    ///
    /// The title comes from the owning manager's
    /// ``UndoManager/undoMenuTitle(forUndoActionName:)``, so a manager subclass that localizes
    /// its titles localizes the coordinator's too.
    ///
    /// ```swift
    /// undoMenuItem.title = coordinator.undoMenuItemTitle   // "Undo Typing"
    /// ```
    public var undoMenuItemTitle: String {
        guard let target = undoTarget else { return "Undo" }
        let name = target.undoActionName
        return name.isEmpty ? "Undo" : target.undoMenuTitle(forUndoActionName: name)
    }

    /// The title for a Redo menu item: "Redo" and the name of the step ``redo()`` would
    /// perform, or just "Redo".
    ///
    /// The title comes from the owning manager's
    /// ``UndoManager/redoMenuTitle(forUndoActionName:)``. Unlike
    /// ``UndoManager/redoMenuItemTitle`` it posts no checkpoint.
    ///
    /// ```swift
    /// redoMenuItem.title = coordinator.redoMenuItemTitle   // "Redo Typing"
    /// ```
    public var redoMenuItemTitle: String {
        guard let target = redoTarget else { return "Redo" }
        let name = target.redoActionName
        return name.isEmpty ? "Redo" : target.redoMenuTitle(forUndoActionName: name)
    }

    /// The names of the steps ``undo()`` would revert across all attached managers, the next
    /// one first: each manager's closed top-level groups in the coordinated order, `""` for a
    /// group without a name. Groups still open are not steps yet and are not listed.
    ///
    /// ```swift
    /// coordinator.undoActionNames   // ["World", "Hello"]: editor 2's step, then editor 1's
    /// ```
    public var undoActionNames: [String] {
        dropGoneMembers()
        return names(of: undoSteps, onRedoStacks: false)
    }

    /// The names of the steps ``redo()`` would perform across all attached managers, the next
    /// one first.
    ///
    /// ```swift
    /// coordinator.undo()
    /// coordinator.redoActionNames   // ["World"]
    /// ```
    public var redoActionNames: [String] {
        dropGoneMembers()
        return names(of: redoSteps, onRedoStacks: true)
    }

    /// Whether every attached manager is at its clean mark (``UndoManager/isClean``): the
    /// coordinated whole is in the state last marked saved. `true` with no managers.
    ///
    /// Mark the whole with ``markClean()`` after saving a document whose parts have their own
    /// managers.
    ///
    /// ```swift
    /// saveDocument()
    /// coordinator.markClean()
    /// coordinator.isClean   // true until any editor changes
    /// ```
    public var isClean: Bool {
        managers.allSatisfy(\.isClean)
    }

    /// Marks every attached manager clean (``UndoManager/markClean()``).
    ///
    /// ```swift
    /// coordinator.markClean()
    /// ```
    public func markClean() {
        for manager in managers {
            manager.markClean()
        }
    }

    /// The action names of `steps`, newest first, read from each member's stack by step id.
    private func names(of steps: [Step], onRedoStacks: Bool) -> [String] {
        var namesByStep: [ObjectIdentifier: [StepID: String]] = [:]
        for member in members {
            guard let manager = member.manager else { continue }
            let names = onRedoStacks
                ? zip(manager.redoStack.steps.ids, manager.redoStack.closedTopLevelNamesNewestFirst().reversed())
                : zip(manager.undoStack.steps.ids, manager.undoStack.closedTopLevelNamesNewestFirst().reversed())
            namesByStep[ObjectIdentifier(member)] = Dictionary(uniqueKeysWithValues: names)
        }
        return steps.reversed().compactMap { step in
            namesByStep[ObjectIdentifier(step.member)]?[step.id]
        }
    }

    // MARK: Targets

    /// The manager ``undo()`` would call: the one whose open event group began last, or else
    /// the one that made the newest step.
    private var undoTarget: UndoManager? {
        dropGoneMembers()
        var newestOpen: Member?
        // `>=`: of groups opened before their managers were attached (serial 0), endEventGroups()
        // ends the last attached last, so that is the one undo() reverts.
        // A group that will merge into its manager's newest step by coalescing makes no step
        // of its own: that step keeps its place in the order.
        for member in members where member.manager.map({ $0.canEndEventGroup && !$0.openGroupWouldMerge }) == true {
            if newestOpen.map({ member.groupOpenSerial >= $0.groupOpenSerial }) ?? true {
                newestOpen = member
            }
        }
        return newestOpen?.manager ?? undoSteps.last?.member.manager
    }

    /// The manager ``redo()`` would call, after ending the open event groups: ending an empty
    /// one is a new edit (spec R10.6), which ends redo for every member.
    private var redoTarget: UndoManager? {
        dropGoneMembers()
        guard !members.contains(where: { $0.manager?.endingEventGroupClearsRedo == true }) else { return nil }
        return redoSteps.last?.member.manager
    }

    /// A member made a new edit: the coordinated history is one line, so redo ends for all
    /// members. The member cleared its own redo stack; this clears the others'.
    func memberMadeNewEdit(_ manager: UndoManager) {
        // Members' redo stacks hold exactly the redo steps (between calls, and removals only
        // shrink them), so an empty order means empty stacks.
        guard !redoSteps.isEmpty else { return }
        redoSteps.removeAll()
        let others = members.compactMap(\.manager).filter { $0 !== manager && !$0.redoStack.isEmpty }
        for other in others {
            other.markCleanBeforeRedoStepsEnd()
            other.redoStack.removeAll()
        }
        // Each settles once all are cleared; the removals they hand back find nothing: the
        // order has no redo steps now.
        for other in others {
            other.settle()
            other.publishObservableChanges()
        }
    }

    /// A member rolled back a ``UndoManager/withUndoGroup(named:_:)`` scope: its stacks are
    /// as they were before the scope, so its steps are resynchronized and the redo order is
    /// put back as it was (a synchronization appends the restored redo steps as newest).
    /// Steps removed meanwhile (`removeAllActions(withTarget:)` in the body) stay out.
    func memberRolledBack(_ manager: UndoManager, restoringRedoOrder order: [Step]) {
        guard let member = members.first(where: { $0.manager === manager }) else { return }
        let memberSteps = manager.redoStack.steps.ids
        let restored = order.filter { $0.member !== member || memberSteps.contains($0.id) }
        let others = redoSteps.filter { $0.member !== member }
        if restored.filter({ $0.member === member }).map(\.id) == memberSteps
            && restored.filter({ $0.member !== member }) == others {
            redoSteps = restored
        } else {
            redoSteps = others + memberSteps.map { Step(member: member, id: $0) }
        }
    }

    /// Ends the open automatic groups of the attached managers, oldest first, as the end of
    /// the event would.
    private func endEventGroups() {
        guard members.contains(where: { $0.manager?.canEndEventGroup == true }) else { return }
        // Ties (groups opened before their managers were attached) end in attach order.
        let open = members.enumerated()
            .filter { $0.element.manager?.canEndEventGroup == true }
            .sorted { ($0.element.groupOpenSerial, $0.offset) < ($1.element.groupOpenSerial, $1.offset) }
        for (_, member) in open {
            member.manager?.endEventGroup()
        }
    }
}

extension UndoManager {
    /// Kept in the manager's storage, like its other state, so that ``UndoCoordinator/attach(_:)``
    /// can find the coordinator the manager belongs to, and move it. A coordinated manager's
    /// transactions record their step edits for it.
    var coordinator: UndoCoordinator? {
        get { state.coordinator }
        set {
            state.coordinator = newValue
            state.isCoordinated = newValue != nil
            updateStepEditRecording()
        }
    }

    /// A new edit (spec R4, R10.6): tells the coordinator, which ends redo for all its members.
    /// Called with the stacks consistent, since clearing other members' stacks releases
    /// entries whose `deinit`s may call back into this manager.
    @inline(__always)
    func newEditEndsRedo() {
        // A flag first: the coordinator reference is weak, and loading it costs atomics on
        // every registration.
        if state.isCoordinated, let coordinator {
            if state.savepoints.isEmpty {
                coordinator.memberMadeNewEdit(self)
            } else {
                // Heard when the outermost scope succeeds, so that a rollback leaves the other
                // members' redo steps untouched.
                state.savepoints[state.savepoints.count - 1].madeNewEdit = true
            }
        }
    }
}
