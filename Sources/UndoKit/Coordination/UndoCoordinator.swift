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
        /// When each of the manager's steps landed on the stack it is on, in the coordinator's
        /// landing order (``Mode/singleOrder``): a later step has a higher stamp. The one thing
        /// the coordinator cannot read from the manager's ledger, which says where its steps
        /// are but not how they interleave with the other members'.
        var landedAt: [StepID: Int64] = [:]
        /// Whether `landedAt` still holds steps that left while a scope
        /// (``UndoManager/withUndoGroup(named:_:)``) ran: a rollback puts them back, with their
        /// ids and in their places, so they are forgotten only once the scope is over.
        var keepsStepsThatLeft = false

        init(manager: UndoManager, origin: String?) {
            self.manager = manager
            self.origin = origin
        }
    }

    var members: [Member] = []
    /// The stamp of the next step to land on a stack (``Member/landedAt``): ``undo()`` reverts
    /// the undo step that landed last, ``redo()`` performs the redo step that landed last.
    var nextLandingStamp: Int64 = 0
    /// The lowest stamp given so far: a manager attached with steps brings them in below it.
    var lowestLandingStamp: Int64 = 0
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
            // Older than every step ordered so far: its undo steps are undone after all others',
            // its redo steps redone after all others'.
            stampAsOldest(manager.undoStack.steps.ids, of: member)
            stampAsOldest(manager.redoStack.steps.ids, of: member)
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
    }

    /// Gives `ids` (one stack's, oldest first) stamps below every stamp given so far.
    private func stampAsOldest(_ ids: [StepID], of member: Member) {
        lowestLandingStamp -= Int64(ids.count)
        for (offset, id) in ids.enumerated() {
            member.landedAt[id] = lowestLandingStamp + Int64(offset)
        }
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
        managerWithNewestStep(onUndoStacks: true)?.undo()
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
        managerWithNewestStep(onUndoStacks: false)?.redo()
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
        return names(onRedoStacks: false)
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
        return names(onRedoStacks: true)
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

    /// The action names of the members' undo steps (redo steps, `onRedoStacks`), the one
    /// that landed last first.
    private func names(onRedoStacks: Bool) -> [String] {
        var landed: [(stamp: Int64, name: String)] = []
        for member in members {
            guard let manager = member.manager else { continue }
            let names = onRedoStacks
                ? zip(manager.redoStack.steps.ids, manager.redoStack.closedTopLevelNamesNewestFirst().reversed())
                : zip(manager.undoStack.steps.ids, manager.undoStack.closedTopLevelNamesNewestFirst().reversed())
            for (id, name) in names {
                if let stamp = member.landedAt[id] {
                    landed.append((stamp, name))
                }
            }
        }
        return landed.sorted { $0.stamp > $1.stamp }.map(\.name)
    }

    /// The member whose newest undo step (redo step, unless `onUndoStacks`) landed last: the
    /// step ``undo()`` (``redo()``) takes. Read from the members' ledgers; only the stamps are
    /// the coordinator's.
    func managerWithNewestStep(onUndoStacks: Bool) -> UndoManager? {
        var newest: (manager: UndoManager, stamp: Int64)?
        for member in members {
            guard let manager = member.manager,
                  let id = onUndoStacks ? manager.undoStack.steps.last : manager.redoStack.steps.last,
                  let stamp = member.landedAt[id]
            else { continue }
            if newest.map({ stamp > $0.stamp }) ?? true {
                newest = (manager, stamp)
            }
        }
        return newest?.manager
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
        return newestOpen?.manager ?? managerWithNewestStep(onUndoStacks: true)
    }

    /// The manager ``redo()`` would call, after ending the open event groups: ending an empty
    /// one is a new edit (spec R10.6), which ends redo for every member.
    private var redoTarget: UndoManager? {
        guard mode == .singleOrder else { return nil }
        dropGoneMembers()
        guard !members.contains(where: { $0.manager?.endingEventGroupClearsRedo == true }) else { return nil }
        return managerWithNewestStep(onUndoStacks: false)
    }

    /// Ends the attached managers' open automatic groups, oldest first.
    func endEventGroups() {
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
}
