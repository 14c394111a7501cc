// Stand-in for the part of Apple's Foundation that Foundation on Linux lacks and UndoKit
// declares: everything `import Foundation` brings on an Apple platform about the undo manager
// (spec section A, current SDKs: macOS 26, iOS 26). A consumer that imports this module beside
// Foundation and UndoKit sees what a consumer on an Apple platform sees; UndoKit is compiled
// in this simulation with this module imported into every file (as Foundation is on Apple
// platforms) and with `canImport(Darwin)` and `canImport(ObjectiveC)` true.
//
// Declarations only: the simulation compiles code against them and never runs it. Apple's
// `setActionName(_: LocalizedStringResource?)` is left out: Foundation on Linux has no
// `LocalizedStringResource` to declare it with.
//
// Keep this list complete: Tests/ApplePlatformSimulation/check-clashes.py compares every name
// UndoKit declares with the names declared here.

@_exported import Darwin
@_exported import ObjectiveC
import Foundation

/// Apple's `UndoManager` (`NSUndoManager`), with its current SDK's actor annotation.
@MainActor
open class UndoManager: NSObject {
    public override init() { super.init() }

    open func registerUndo(withTarget target: Any, selector: Selector, object anObject: Any?) {}
    open func prepare(withInvocationTarget target: Any) -> Any { self }

    open var canUndo: Bool { false }
    open var canRedo: Bool { false }
    open var undoCount: Int { 0 }
    open var redoCount: Int { 0 }

    open func undo() {}
    open func redo() {}
    open func undoNestedGroup() {}

    open var levelsOfUndo: Int = 0

    open func beginUndoGrouping() {}
    open func endUndoGrouping() {}
    open var groupingLevel: Int { 0 }
    open var groupsByEvent: Bool = true

    open func disableUndoRegistration() {}
    open func enableUndoRegistration() {}
    open var isUndoRegistrationEnabled: Bool { true }

    open var isUndoing: Bool { false }
    open var isRedoing: Bool { false }

    open func removeAllActions() {}
    open func removeAllActions(withTarget target: Any) {}

    open func setActionName(_ actionName: String) {}
    open var undoActionName: String { "" }
    open var redoActionName: String { "" }
    open var undoMenuItemTitle: String { "Undo" }
    open var redoMenuItemTitle: String { "Redo" }
    open func undoMenuTitle(forUndoActionName actionName: String) -> String { "Undo" }
    open func redoMenuTitle(forUndoActionName actionName: String) -> String { "Redo" }

    open func setActionIsDiscardable(_ discardable: Bool) {}
    open var undoActionIsDiscardable: Bool { false }
    open var redoActionIsDiscardable: Bool { false }

    open func setActionUserInfoValue(_ info: Any?, forKey key: UserInfoKey) {}
    open func undoActionUserInfoValue(forKey key: UserInfoKey) -> Any? { nil }
    open func redoActionUserInfoValue(forKey key: UserInfoKey) -> Any? { nil }

    open var runLoopModes: [RunLoop.Mode] = [.default]
}

extension UndoManager {
    /// The Swift overlay's closure registration (`@MainActor` handler in current SDKs).
    public func registerUndo<TargetType: AnyObject>(
        withTarget target: TargetType,
        handler: @escaping @MainActor (TargetType) -> Void
    ) {}

    /// `NSUndoManagerUserInfoKey`.
    public struct UserInfoKey: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral {
        public let rawValue: String
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(stringLiteral rawValue: String) { self.rawValue = rawValue }
    }
}

/// `NSUndoCloseGroupingRunLoopOrdering`.
public let NSUndoCloseGroupingRunLoopOrdering: Int = 350_000

/// `NSUndoManagerGroupIsDiscardableKey`.
public let NSUndoManagerGroupIsDiscardableKey: String = "NSUndoManagerGroupIsDiscardableKey"

extension NSNotification.Name {
    public static let NSUndoManagerCheckpoint = NSNotification.Name("NSUndoManagerCheckpointNotification")
    public static let NSUndoManagerDidOpenUndoGroup = NSNotification.Name("NSUndoManagerDidOpenUndoGroupNotification")
    public static let NSUndoManagerWillCloseUndoGroup = NSNotification.Name("NSUndoManagerWillCloseUndoGroupNotification")
    public static let NSUndoManagerDidCloseUndoGroup = NSNotification.Name("NSUndoManagerDidCloseUndoGroupNotification")
    public static let NSUndoManagerWillUndoChange = NSNotification.Name("NSUndoManagerWillUndoChangeNotification")
    public static let NSUndoManagerDidUndoChange = NSNotification.Name("NSUndoManagerDidUndoChangeNotification")
    public static let NSUndoManagerWillRedoChange = NSNotification.Name("NSUndoManagerWillRedoChangeNotification")
    public static let NSUndoManagerDidRedoChange = NSNotification.Name("NSUndoManagerDidRedoChangeNotification")
}

// The OS 26 typed messages, each interoperating with its notification on Apple platforms.
extension UndoManager {
    public struct CheckpointMessage: NotificationCenter.MainActorMessage, Sendable {
        public typealias Subject = UndoManager
        public static var name: Notification.Name { .NSUndoManagerCheckpoint }
        public init() {}
    }
    public struct DidOpenUndoGroupMessage: NotificationCenter.MainActorMessage, Sendable {
        public typealias Subject = UndoManager
        public static var name: Notification.Name { .NSUndoManagerDidOpenUndoGroup }
        public init() {}
    }
    public struct WillCloseUndoGroupMessage: NotificationCenter.MainActorMessage, Sendable {
        public typealias Subject = UndoManager
        public static var name: Notification.Name { .NSUndoManagerWillCloseUndoGroup }
        public init() {}
    }
    public struct DidCloseUndoGroupMessage: NotificationCenter.MainActorMessage, Sendable {
        public typealias Subject = UndoManager
        public static var name: Notification.Name { .NSUndoManagerDidCloseUndoGroup }
        public var groupIsDiscardable: Bool
        public init(groupIsDiscardable: Bool) { self.groupIsDiscardable = groupIsDiscardable }
    }
    public struct WillUndoChangeMessage: NotificationCenter.MainActorMessage, Sendable {
        public typealias Subject = UndoManager
        public static var name: Notification.Name { .NSUndoManagerWillUndoChange }
        public init() {}
    }
    public struct DidUndoChangeMessage: NotificationCenter.MainActorMessage, Sendable {
        public typealias Subject = UndoManager
        public static var name: Notification.Name { .NSUndoManagerDidUndoChange }
        public var groupIsDiscardable: Bool
        public init(groupIsDiscardable: Bool) { self.groupIsDiscardable = groupIsDiscardable }
    }
    public struct WillRedoChangeMessage: NotificationCenter.MainActorMessage, Sendable {
        public typealias Subject = UndoManager
        public static var name: Notification.Name { .NSUndoManagerWillRedoChange }
        public init() {}
    }
    public struct DidRedoChangeMessage: NotificationCenter.MainActorMessage, Sendable {
        public typealias Subject = UndoManager
        public static var name: Notification.Name { .NSUndoManagerDidRedoChange }
        public var groupIsDiscardable: Bool
        public init(groupIsDiscardable: Bool) { self.groupIsDiscardable = groupIsDiscardable }
    }
}

extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<UndoManager.CheckpointMessage> {
    public static var checkpoint: Self { .init() }
}
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<UndoManager.DidOpenUndoGroupMessage> {
    public static var didOpenUndoGroup: Self { .init() }
}
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<UndoManager.WillCloseUndoGroupMessage> {
    public static var willCloseUndoGroup: Self { .init() }
}
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<UndoManager.DidCloseUndoGroupMessage> {
    public static var didCloseUndoGroup: Self { .init() }
}
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<UndoManager.WillUndoChangeMessage> {
    public static var willUndoChange: Self { .init() }
}
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<UndoManager.DidUndoChangeMessage> {
    public static var didUndoChange: Self { .init() }
}
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<UndoManager.WillRedoChangeMessage> {
    public static var willRedoChange: Self { .init() }
}
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<UndoManager.DidRedoChangeMessage> {
    public static var didRedoChange: Self { .init() }
}
