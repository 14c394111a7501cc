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
/// ``undo()`` and ``redo()`` go through the owning manager's own ``UndoManager/undo()`` and
/// ``UndoManager/redo()``, so notifications and action names behave as without it. Nothing
/// has to go through the coordinator: the order stays true when a manager is undone or
/// redone directly, when removals or ``UndoManager/levelsOfUndo`` drop groups, and when a
/// manager is detached or goes away. In ``Mode/singleOrder`` mode a new edit in any manager
/// ends redo for all of them, so the history stays one line (in ``Mode/perMember`` mode each
/// member's redo is its own). ``undo()`` and ``redo()`` first end the current event for
/// every attached manager (``UndoManager/endEventGroup()``), so an edit still open counts as
/// the most recent one.
///
/// The coordinator holds its managers weakly and observes them with
/// ``UndoManager/addEventObserver(_:)``; each attached manager holds its coordinator, so a
/// coordinator made in a set-up function and not kept goes on working while any of its
/// managers exists (no cycle: it goes away once every manager is detached or gone). Like
/// ``UndoManager`` it is not `Sendable`. See <doc:CoordinatingUndoManagers>.
public final class UndoCoordinator {
    final class Member {
        weak var manager: UndoManager?
        var observation: UndoManager.EventObservation?
        /// When its newest top-level group opened, to end open event groups in that order.
        var groupOpenSerial: UInt64 = 0
        /// Who edits through this manager, for the changes noted on the others
        /// (``Mode/perMember``).
        var origin: String?

        init(manager: UndoManager, origin: String?) {
            self.manager = manager
            self.origin = origin
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

    /// How a coordinator relates its managers' steps.
    ///
    /// ```swift
    /// let people = UndoCoordinator(mode: .perMember)   // one manager per person
    /// ```
    public enum Mode: Hashable, Sendable {
        /// One undo order across the managers: ``undo()`` reverts the newest step of whoever
        /// made it, and a new edit anywhere ends redo everywhere. The default.
        case singleOrder
        /// Each manager is one person's: it undoes only its own steps, through its own
        /// ``UndoManager/undo()``. Every step a member closes, undoes or redoes is noted on the
        /// other members as a change to the parts it declared
        /// (``UndoManager/noteChanges(to:origin:)``; a step that declared none changes every
        /// part), so their overlapping steps become stale at once, and their
        /// ``UndoManager/staleStepPolicy`` decides what their undo does. The coordinator's
        /// own ``undo()`` and ``redo()`` have nothing to choose and stop the program; its
        /// ``isClean`` and ``markClean()`` still cover every member. Members may keep redo
        /// branches.
        case perMember
    }

    /// How this coordinator relates its managers' steps; fixed when it is created.
    ///
    /// ```swift
    /// UndoCoordinator().mode   // .singleOrder
    /// ```
    public let mode: Mode

    /// Creates a coordinator with no managers.
    ///
    /// ```swift
    /// let coordinator = UndoCoordinator()
    /// coordinator.canUndo   // false
    /// let people = UndoCoordinator(mode: .perMember)
    /// ```
    public init(mode: Mode = .singleOrder) {
        self.mode = mode
    }

    deinit {
        for member in members {
            member.observation?.cancel()
            // Its managers are on their own again: no edits to hand over, branches allowed.
            member.manager?.coordinator = nil
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
    /// Groups already on the manager's stacks join the order as the oldest; groups still open
    /// join when they close. Attaching detaches the manager from its previous coordinator;
    /// attaching it twice does nothing. The coordinator keeps the manager weakly.
    ///
    /// ```swift
    /// let manager = UndoManager(runLoop: windowLoop)
    /// coordinator.attach(manager)
    /// ```
    public func attach(_ manager: UndoManager) {
        attach(manager, origin: nil)
    }

    /// Adds a manager, naming who edits through it: in ``Mode/perMember`` mode, the changes
    /// its steps make are noted on the other members with `origin` (``UndoChange/origin``),
    /// so their ``UndoManager/staleUndoStep`` can say "changed by Alice". See
    /// ``attach(_:)``.
    ///
    /// ```swift
    /// let people = UndoCoordinator(mode: .perMember)
    /// people.attach(alice.undoManager, origin: "Alice")
    /// people.attach(bob.undoManager, origin: "Bob")
    /// ```
    public func attach(_ manager: UndoManager, origin: String?) {
        if manager.coordinator === self { return }
        if manager.keepsRedoBranches && mode == .singleOrder {
            manager.programmerError(
                in: PublicCall("UndoCoordinator.attach(_:)"),
                "a manager that keeps redo branches cannot join a coordinator",
                fix: "set keepsRedoBranches to false before attaching (the coordinator orders steps as one "
                    + "sequence across its managers, which has no place for one manager's branches)"
            )
        }
        manager.coordinator?.detach(manager)
        let member = Member(manager: manager, origin: origin)
        // From now on its transactions hand over their step edits (UndoCoordinator+Edits.swift).
        if mode == .singleOrder {
            undoSteps.insert(contentsOf: manager.undoStack.steps.ids.map { Step(member: member, id: $0) }, at: 0)
            redoSteps.insert(contentsOf: manager.redoStack.steps.ids.map { Step(member: member, id: $0) }, at: 0)
        }
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

    /// Whether ``undo()`` would revert something (a step, or an open automatic group). Like
    /// ``UndoManager/canUndo``, it does not promise the undo is allowed.
    ///
    /// ```swift
    /// undoMenuItem.isEnabled = coordinator.canUndo
    /// ```
    public var canUndo: Bool {
        undoTarget != nil
    }

    /// Whether ``redo()`` would perform something. Unlike ``UndoManager/canRedo`` it posts no
    /// checkpoint.
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
    /// First ends the attached managers' open events, in the order they opened, so the newest
    /// is what gets undone. Does nothing when there is nothing to undo.
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
        stopIfPerMember(in: "UndoCoordinator.undo()")
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
        stopIfPerMember(in: "UndoCoordinator.redo()")
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
    /// From the owning manager's ``UndoManager/undoMenuTitle(forUndoActionName:)``, so a
    /// subclass's localization applies.
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
    /// From the owning manager's ``UndoManager/redoMenuTitle(forUndoActionName:)``; it posts
    /// no checkpoint.
    ///
    /// ```swift
    /// redoMenuItem.title = coordinator.redoMenuItemTitle   // "Redo Typing"
    /// ```
    public var redoMenuItemTitle: String {
        guard let target = redoTarget else { return "Redo" }
        let name = target.redoActionName
        return name.isEmpty ? "Redo" : target.redoMenuTitle(forUndoActionName: name)
    }

    /// The names of the steps ``undo()`` would revert, the next one first, `""` for a group
    /// without a name; open groups are not listed.
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

    /// Whether every attached manager is at its clean mark (``UndoManager/isClean``); `true`
    /// with no managers. Mark the whole with ``markClean()``.
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

    /// The action names of `steps`, newest first.
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
        // Per member, there is no order to follow: nothing to undo here.
        guard mode == .singleOrder else { return nil }
        dropGoneMembers()
        var newestOpen: Member?
        // `>=`: of groups opened before attaching (serial 0), the last attached ends last.
        // A group that will coalesce into its manager's newest step makes no step of its own.
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
        guard mode == .singleOrder else { return nil }
        dropGoneMembers()
        guard !members.contains(where: { $0.manager?.endingEventGroupClearsRedo == true }) else { return nil }
        return redoSteps.last?.member.manager
    }

    /// A member made a new edit and cleared its redo stack: this clears the others'.
    func memberMadeNewEdit(_ manager: UndoManager) {
        // The order holds exactly the members' redo steps: empty order, empty stacks (and
        // always empty per member, where each keeps its own redo).
        guard !redoSteps.isEmpty else { return }
        redoSteps.removeAll()
        let others = members.compactMap(\.manager).filter { $0 !== manager && !$0.redoStack.isEmpty }
        for other in others {
            other.markCleanBeforeRedoStepsEnd()
            other.redoStack.removeAll()
        }
        // Settled once all are cleared: the removals they hand back find nothing.
        for other in others {
            other.settle()
            other.publishObservableChanges()
        }
    }

    /// A member rolled back a ``UndoManager/withUndoGroup(named:_:)`` scope: the redo order
    /// is put back as it was, less steps removed meanwhile. Per member there is no order.
    func memberRolledBack(_ manager: UndoManager, restoringRedoOrder order: [Step]) {
        guard mode == .singleOrder, let member = members.first(where: { $0.manager === manager }) else { return }
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

    /// Ends the attached managers' open automatic groups, oldest first.
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
    /// The coordinator the manager is attached to; its transactions record step edits for it.
    var coordinator: UndoCoordinator? {
        get { state.coordinator }
        set {
            state.coordinator = newValue
            state.isCoordinated = newValue != nil
            updateStepEditRecording()
        }
    }

    /// A new edit (spec R4, R10.6) ends redo for all members. Called with the stacks
    /// consistent: clearing the others' releases entries whose `deinit`s may call back.
    @inline(__always)
    func newEditEndsRedo() {
        // A flag first: loading the weak reference costs atomics on every registration.
        if state.isCoordinated, let coordinator {
            if state.savepoints.isEmpty {
                coordinator.memberMadeNewEdit(self)
            } else {
                // Heard when the outermost scope succeeds: a rollback leaves the others alone.
                state.savepoints[state.savepoints.count - 1].madeNewEdit = true
            }
        }
    }
}
