import UndoKit

/// A document of named fields that several people edit: each person's manager records steps
/// that declare the fields they set. Shared by the editing-together suites.
final class SharedDocument {
    var fields: [String: String] = [:]

    /// Sets `field` to `value` as one step of `manager`, declaring the field unless
    /// `declaring` is false; the undo puts back what the field held.
    func set(_ field: String, to value: String?, by manager: UndoManager, declaring: Bool = true) {
        manager.beginUndoGrouping()
        write(field, to: value, by: manager, declaring: declaring)
        manager.setActionName("Set \(field)")
        manager.endUndoGrouping()
    }

    /// Sets `field` to `value` inside the group `manager` has open, registering the undo (and
    /// declaring the field, unless `declaring` is false) there.
    func write(_ field: String, to value: String?, by manager: UndoManager, declaring: Bool = true) {
        let old = fields[field]
        fields[field] = value
        registerSet(field, to: old, by: manager, declaring: declaring)
    }

    private func registerSet(_ field: String, to value: String?, by manager: UndoManager, declaring: Bool) {
        // Unowned: the manager holds this action, and runs it only while it exists.
        manager.registerUndo(withTarget: self) { [unowned manager] document in
            let current = document.fields[field]
            document.fields[field] = value
            document.registerSet(field, to: current, by: manager, declaring: declaring)
        }
        if declaring {
            manager.addActionParts(UndoPart("field", field))
        }
    }
}
