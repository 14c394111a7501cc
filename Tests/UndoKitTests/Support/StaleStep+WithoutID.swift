import UndoKit

extension StaleStep {
    /// The same description with no id: what a reference that does not know the manager's
    /// step ids can compare with.
    var withoutID: StaleStep {
        var copy = self
        copy.id = nil
        return copy
    }
}
