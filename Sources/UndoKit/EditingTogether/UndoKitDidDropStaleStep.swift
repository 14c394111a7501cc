import Foundation

extension Notification.Name {
    /// Posted when a stale step is dropped without running, under the
    /// ``StaleStepPolicy/skip`` policy, before the undo or redo that dropped it runs the
    /// newest step that is not stale. The userInfo's ``UndoKitStaleStepActionNameKey`` holds
    /// the step's action name, and ``UndoKitStaleStepKey`` the whole ``StaleStep`` (its id,
    /// parts and changes). UndoKit's own notification: Apple's manager has no stale steps.
    ///
    /// ```swift
    /// NotificationCenter.default.addObserver(forName: .UndoKitDidDropStaleStep, object: manager, queue: nil) { note in
    ///     showToast("Skipped \(note.userInfo?[UndoKitStaleStepActionNameKey] ?? "")")
    /// }
    /// ```
    public static let UndoKitDidDropStaleStep = Notification.Name("UndoKitDidDropStaleStepNotification")
}

/// The userInfo key of ``Foundation/Notification/Name/UndoKitDidDropStaleStep``: the dropped
/// step's action name.
///
/// ```swift
/// let name = note.userInfo?[UndoKitStaleStepActionNameKey] as? String
/// ```
public let UndoKitStaleStepActionNameKey = "UndoKitStaleStepActionNameKey"

/// The userInfo key of ``Foundation/Notification/Name/UndoKitDidDropStaleStep``: the dropped
/// step, a ``StaleStep`` with its id, action name, parts and changes.
///
/// ```swift
/// let step = note.userInfo?[UndoKitStaleStepKey] as? StaleStep
/// ```
public let UndoKitStaleStepKey = "UndoKitStaleStepKey"
