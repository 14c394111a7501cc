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
}

/// What observing a manager needs beyond the read bits: made on the first read.
final class ObservationState {
    let registrar = ObservationRegistrar()
    /// The value each property in `UndoManagerStorage.observedProperties` had when it was
    /// read, by ``ObservedProperty/rawValue``.
    var values: [ObservedValue?] = Array(repeating: nil, count: ObservedProperty.allCases.count)
    /// For each property read so far, what announces its change: made from the key path the
    /// getter passed, so a change reuses that key path instead of instantiating another (a
    /// key path literal costs 8,000–20,000 instructions on its first use).
    var announcers: [((UndoManager) -> Void)?] = Array(repeating: nil, count: ObservedProperty.allCases.count)
}

extension UndoManager {
    /// The manager's observation state, made on first use.
    private var observationState: ObservationState {
        if let state = storage.pointee.observation { return state }
        let state = ObservationState()
        storage.pointee.observation = state
        return state
    }

    /// Called by the getter of an observable property: tells Observation the property was
    /// read, and remembers its value if it was not already being watched.
    @inline(__always)
    func trackRead<Member>(_ property: ObservedProperty, _ keyPath: KeyPath<UndoManager, Member>) {
        let state = observationState
        state.registrar.access(self, keyPath: keyPath)
        if storage.pointee.observedProperties & property.bit == 0 {
            startWatching(property, keyPath, in: state)
        }
    }

    private func startWatching<Member>(
        _ property: ObservedProperty, _ keyPath: KeyPath<UndoManager, Member>, in state: ObservationState
    ) {
        state.values[property.rawValue] = currentValue(of: property)
        if state.announcers[property.rawValue] == nil {
            let registrar = state.registrar
            state.announcers[property.rawValue] = { manager in registrar.withMutation(of: manager, keyPath: keyPath) {} }
        }
        storage.pointee.observedProperties |= property.bit
    }

    /// Announces the observable properties that changed since they were read. Called at the
    /// end of every public operation that can change one; with nothing read it is one test.
    @inline(__always)
    func publishObservableChanges() {
        if storage.pointee.observedProperties != 0 {
            publishObservableChangesNow()
        }
    }

    private func publishObservableChangesNow() {
        let state = observationState
        var changed: [ObservedProperty] = []
        for property in ObservedProperty.allCases where storage.pointee.observedProperties & property.bit != 0 {
            if currentValue(of: property) != state.values[property.rawValue] {
                changed.append(property)
                storage.pointee.observedProperties &= ~property.bit
                state.values[property.rawValue] = nil
            }
        }
        // Announced after the bookkeeping: an onChange handler runs inside `withMutation`
        // and may read the properties again, which starts watching them afresh.
        for property in changed {
            state.announcers[property.rawValue]?(self)
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
        case .isUndoing: .bool(storage.pointee.isUndoing)
        case .isRedoing: .bool(storage.pointee.isRedoing)
        case .groupingLevel: .int(currentStack.nesting)
        case .isUndoRegistrationEnabled: .bool(registrationIsEnabled)
        case .levelsOfUndo: .int(undoStack.limit)
        case .isClean: .bool(undoStack.cleanDistance == 0)
        case .totalActionCost: .int(undoStack.totalCost)
        }
    }
}
