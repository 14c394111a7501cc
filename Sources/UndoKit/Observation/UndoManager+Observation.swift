import Observation

/// `UndoManager` is `Observable`: SwiftUI-style bindings, `withObservationTracking` and
/// `Observations` track the manager's public queries.
///
/// ```swift
/// withObservationTracking {
///     undoButton.isEnabled = manager.canUndo
///     undoButton.title = manager.undoMenuItemTitle
/// } onChange: {
///     scheduleRefresh()   // once, after the next operation that changes either
/// }
/// ```
///
/// How it stays free when nothing observes: a getter records that its property was read
/// (one bit) and the value it returned; each public operation then tests one word, and only
/// when a bit is set does it recompute the properties read and announce the ones that
/// changed. Announcing a change clears its bit; a tracking that wants the next change reads
/// the property again, as `withObservationTracking` and `Observations` do.
extension UndoManager: Observable {}

/// The manager's observable properties (spec J1), one bit each in
/// `UndoManagerStorage.observedProperties`.
enum ObservedProperty: Int, CaseIterable {
    case canUndo, canRedo, undoMenuItemTitle, redoMenuItemTitle, undoActionName, redoActionName
    case undoActionNames, redoActionNames, undoCount, redoCount, isUndoing, isRedoing
    case groupingLevel, isUndoRegistrationEnabled, levelsOfUndo, isClean, totalActionCost
    case currentHistoryNodeID, historyTree

    var bit: UInt32 { 1 << UInt32(rawValue) }
}

/// A value an observable property returned, kept to tell whether an operation changed it.
enum ObservedValue: Equatable {
    case bool(Bool)
    case int(Int)
    case string(String)
    case strings([String])
    /// What a menu item title is made of.
    case title(isAvailable: Bool, name: String)
    /// The whole history tree: a branch can change while the undo and redo paths stay.
    case tree(UndoTree)
}

/// What observing a manager needs beyond the read bits: made on the first read.
final class ObservationState {
    let registrar = ObservationRegistrar()
    /// For each property read so far, what announces its change: made from the key path the
    /// getter passed, so a change reuses that key path instead of instantiating another (a
    /// key path literal costs 8,000–20,000 instructions on its first use).
    var announcers: [((UndoManager) -> Void)?] = Array(repeating: nil, count: ObservedProperty.allCases.count)
}

extension UndoManager {
    /// The manager's observation state, made on first use.
    private var observationState: ObservationState {
        if let existing = state.observation { return existing }
        let created = ObservationState()
        state.observation = created
        return created
    }

    /// Called by the getter of an observable property: tells Observation the property was
    /// read, and remembers its value if it was not already being watched.
    @inline(__always)
    func trackRead<Member>(_ property: ObservedProperty, _ keyPath: KeyPath<UndoManager, Member>) {
        let observation = observationState
        observation.registrar.access(self, keyPath: keyPath)
        if state.observedProperties & property.bit != 0 {
            // Watched already, with the value an earlier read saw: if an operation changed it
            // without publishing yet (a read in the middle of an undo, say), the earlier
            // readers hear of it now, and this read starts watching the value it sees.
            publishObservableChanges(among: property.bit)
        }
        if state.observedProperties & property.bit == 0 {
            startWatching(property, keyPath, in: observation)
        }
    }

    private func startWatching<Member>(
        _ property: ObservedProperty, _ keyPath: KeyPath<UndoManager, Member>, in observation: ObservationState
    ) {
        if state.observedValues.isEmpty {
            state.observedValues = Array(repeating: nil, count: ObservedProperty.allCases.count)
            state.observedScalars = Array(repeating: 0, count: ObservedProperty.allCases.count)
        }
        if let scalar = currentScalar(of: property) {
            state.observedScalars[property.rawValue] = scalar
        } else {
            state.observedValues[property.rawValue] = currentValue(of: property)
        }
        if observation.announcers[property.rawValue] == nil {
            let registrar = observation.registrar
            observation.announcers[property.rawValue] = { manager in registrar.withMutation(of: manager, keyPath: keyPath) {} }
        }
        state.observedProperties |= property.bit
    }

    /// Announces the observable properties that changed since they were read. Called at the
    /// end of every public operation that can change one; with nothing read it is one test.
    @inline(__always)
    func publishObservableChanges() {
        if state.observedProperties != 0 {
            publishObservableChangesNow()
        }
    }

    private func publishObservableChangesNow() {
        publishObservableChanges(among: state.observedProperties)
    }

    /// Announces the properties among `candidates` that are watched and changed.
    private func publishObservableChanges(among candidates: UInt32) {
        // A rollback publishes once, when it is done, what ended other than it began; the
        // watched values stay as they were read until then.
        guard !state.isRollingBackScope else { return }
        // Called after every operation while anything is watched, changed or not (a property
        // read once stays watched until it changes): so only the watched bits are visited,
        // and the values live in the manager's storage, which no exclusivity check guards.
        var watched = state.observedProperties & candidates
        var changed: UInt32 = 0
        while watched != 0 {
            let index = watched.trailingZeroBitCount
            watched &= watched - 1
            let property = ObservedProperty(rawValue: index).unsafelyUnwrapped
            let isUnchanged = if let scalar = currentScalar(of: property) {
                // Counts and flags, the common case, compare as integers.
                scalar == state.observedScalars[index]
            } else if case .strings(let names)? = state.observedValues[index] {
                // The listings are compared in place: a History panel keeps them watched, and
                // making the array after every operation would cost O(steps) allocations.
                property == .undoActionNames
                    ? undoStack.closedTopLevelNamesNewestFirst(equal: names)
                    : redoStack.closedTopLevelNamesNewestFirst(equal: names)
            } else {
                currentValue(of: property) == state.observedValues[index]
            }
            if !isUnchanged {
                changed |= property.bit
                state.observedValues[index] = nil
            }
        }
        guard changed != 0 else { return }
        state.observedProperties &= ~changed
        // Announced after the bookkeeping: an onChange handler runs inside `withMutation`
        // and may read the properties again, which starts watching them afresh.
        let announcers = observationState.announcers
        while changed != 0 {
            let index = changed.trailingZeroBitCount
            changed &= changed - 1
            announcers[index]?(self)
        }
    }

    /// The value of a count or flag property as an integer; `nil` for the names and titles.
    @inline(__always)
    private func currentScalar(of property: ObservedProperty) -> Int? {
        switch property {
        case .canUndo: undoStack.topLevelCount != 0 ? 1 : 0
        case .canRedo: redoStack.topLevelCount != 0 ? 1 : 0
        case .undoCount: undoStack.appleCount
        case .redoCount: redoStack.appleCount
        case .isUndoing: state.isUndoing ? 1 : 0
        case .isRedoing: state.isRedoing ? 1 : 0
        case .groupingLevel: currentStack.nesting
        case .isUndoRegistrationEnabled: registrationIsEnabled ? 1 : 0
        case .levelsOfUndo: undoStack.limit
        case .isClean: isAtCleanMark ? 1 : 0
        case .totalActionCost: undoStack.totalCost
        case .currentHistoryNodeID: Int(truncatingIfNeeded: undoStack.steps.last?.rawValue ?? 0)
        case .undoMenuItemTitle, .redoMenuItemTitle, .undoActionName, .redoActionName, .undoActionNames,
             .redoActionNames, .historyTree:
            nil
        }
    }

    /// The value of `property` as its getter computes it, from stored state: never through
    /// the overridable members (`canRedo`'s getter posts a checkpoint, and a subclass sees
    /// exactly the calls Apple's manager makes).
    private func currentValue(of property: ObservedProperty) -> ObservedValue {
        switch property {
        case .canUndo: .bool(undoStack.topLevelCount != 0)
        case .canRedo: .bool(redoStack.topLevelCount != 0)
        // A title is a function of these two (through the overridable
        // `undoMenuTitle(forUndoActionName:)`, which is not called here: reading a property
        // must not make the manager call a subclass's members it would not call otherwise).
        case .undoMenuItemTitle: .title(isAvailable: undoStack.topLevelCount != 0, name: undoStack.topMetadata?.name ?? "")
        case .redoMenuItemTitle: .title(isAvailable: redoStack.topLevelCount != 0, name: redoStack.topMetadata?.name ?? "")
        case .undoActionName: .string(undoStack.topMetadata?.name ?? "")
        case .redoActionName: .string(redoStack.topMetadata?.name ?? "")
        case .undoActionNames: .strings(undoStack.closedTopLevelNamesNewestFirst())
        case .redoActionNames: .strings(redoStack.closedTopLevelNamesNewestFirst())
        case .undoCount: .int(undoStack.appleCount)
        case .redoCount: .int(redoStack.appleCount)
        case .isUndoing: .bool(state.isUndoing)
        case .isRedoing: .bool(state.isRedoing)
        case .groupingLevel: .int(currentStack.nesting)
        case .isUndoRegistrationEnabled: .bool(registrationIsEnabled)
        case .levelsOfUndo: .int(undoStack.limit)
        case .isClean: .bool(isAtCleanMark)
        case .totalActionCost: .int(undoStack.totalCost)
        case .currentHistoryNodeID: .int(Int(truncatingIfNeeded: undoStack.steps.last?.rawValue ?? 0))
        case .historyTree: .tree(makeHistoryTree())
        }
    }
}
