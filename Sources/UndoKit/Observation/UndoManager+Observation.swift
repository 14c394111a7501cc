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
/// Free when nothing observes: a getter sets its property's bit and keeps the value; each
/// operation tests one word, and only for set bits recomputes and announces what changed,
/// clearing the bit (a tracking reads again for the next change).
extension UndoManager: Observable {}

/// The observable properties (spec J1), one bit each in `UndoManagerStorage.observedProperties`.
enum ObservedProperty: Int, CaseIterable {
    case canUndo, canRedo, undoMenuItemTitle, redoMenuItemTitle, undoActionName, redoActionName
    case undoActionNames, redoActionNames, undoCount, redoCount, isUndoing, isRedoing
    case groupingLevel, isUndoRegistrationEnabled, levelsOfUndo, isClean, totalActionCost
    case currentHistoryNodeID, historyTree, staleUndoStep, staleRedoStep, staleUndoSteps, staleRedoSteps

    var bit: UInt32 { 1 << UInt32(rawValue) }
}

/// A non-scalar value an observable property returned, to tell whether it changed.
enum ObservedValue: Equatable {
    case string(String)
    case strings([String])
    case title(isAvailable: Bool, name: String)
    /// The whole history tree: a branch can change while the undo and redo paths stay.
    case tree(UndoTree)
    case staleStep(StaleStep?)
    case staleSteps([StaleStep])
}

/// What observing a manager needs beyond the read bits: made on the first read.
final class ObservationState {
    let registrar = ObservationRegistrar()
    /// For each property read so far, what announces its change, reusing the getter's key
    /// path (a key path literal costs 8,000–20,000 instructions on first use).
    var announcers: [((UndoManager) -> Void)?] = Array(repeating: nil, count: ObservedProperty.allCases.count)
}

extension UndoManager {
    private var observationState: ObservationState {
        if let existing = state.observation { return existing }
        let created = ObservationState()
        state.observation = created
        return created
    }

    /// Called by an observable property's getter: tells Observation, and watches the value.
    @inline(__always)
    func trackRead<Member>(_ property: ObservedProperty, _ keyPath: KeyPath<UndoManager, Member>) {
        let observation = observationState
        observation.registrar.access(self, keyPath: keyPath)
        if state.observedProperties & property.bit != 0 {
            // If it changed unpublished (a read in the middle of an undo), earlier readers
            // hear of it now, and this read watches the value it sees.
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

    /// Announces the observable properties that changed since read; one test if none was.
    @inline(__always)
    func publishObservableChanges() {
        if state.observedProperties != 0 {
            publishObservableChanges(among: state.observedProperties)
        }
    }

    /// Announces the properties among `candidates` that are watched and changed.
    private func publishObservableChanges(among candidates: UInt32) {
        // A rollback publishes once, when done.
        guard !state.isRollingBackScope else { return }
        // Runs after every operation while anything is watched: only watched bits are
        // visited, and the values live in storage no exclusivity check guards.
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
                // Compared in place: making the array each time would allocate O(steps).
                stepNamesAreUnchanged(names, onUndoStack: property == .undoActionNames)
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
        // After the bookkeeping: an onChange handler may read the properties again.
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
        case .canUndo: undoIsAvailable ? 1 : 0
        case .canRedo: redoIsAvailable ? 1 : 0
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
             .redoActionNames, .historyTree, .staleUndoStep, .staleRedoStep, .staleUndoSteps, .staleRedoSteps:
            nil
        }
    }

    /// The value of a property that is not a scalar (``currentScalar(of:)``) as its getter
    /// computes it, from stored state: never through the overridable members (a subclass sees
    /// exactly the calls Apple's manager makes).
    private func currentValue(of property: ObservedProperty) -> ObservedValue? {
        switch property {
        // A title is a function of these two (not through `undoMenuTitle(forUndoActionName:)`,
        // which a subclass may override).
        case .undoMenuItemTitle: .title(isAvailable: undoIsAvailable, name: undoStepName)
        case .redoMenuItemTitle: .title(isAvailable: redoIsAvailable, name: redoStepName)
        case .undoActionName: .string(undoStepName)
        case .redoActionName: .string(redoStepName)
        case .staleUndoStep: .staleStep(staleStep(onUndoStack: true))
        case .staleRedoStep: .staleStep(staleStep(onUndoStack: false))
        case .undoActionNames: .strings(stepNames(onUndoStack: true))
        case .redoActionNames: .strings(stepNames(onUndoStack: false))
        case .staleUndoSteps: .staleSteps(staleSteps(onUndoStack: true))
        case .staleRedoSteps: .staleSteps(staleSteps(onUndoStack: false))
        case .historyTree: .tree(makeHistoryTree())
        case .canUndo, .canRedo, .undoCount, .redoCount, .isUndoing, .isRedoing, .groupingLevel,
             .isUndoRegistrationEnabled, .levelsOfUndo, .isClean, .totalActionCost, .currentHistoryNodeID:
            nil
        }
    }
}
