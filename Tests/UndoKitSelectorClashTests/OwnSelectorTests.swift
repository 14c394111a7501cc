import Testing
import UndoKit

// A module that declares a `Selector` of its own, as some cross-platform packages do for
// their own message dispatch, still builds against UndoKit: its own type shadows UndoKit's,
// and it names UndoKit's as `UndoKit.Selector` where it overrides the selector-based API.

/// This module's own notion of a selector, unrelated to UndoKit's.
struct Selector: Equatable {
    let command: String
    let arity: Int
}

final class CommandRouter {
    var routes: [String: Selector] = [:]
    func route(_ name: String, to selector: Selector) { routes[name] = selector }
}

final class QuietUndoManager: UndoManager {
    private(set) var ignored = 0
    override func registerUndo(withTarget target: Any, selector: UndoKit.Selector, object anObject: Any?) {
        ignored += 1
    }
}

@Suite("A module with its own Selector type")
struct OwnSelectorTests {
    @Test func bothSelectorsLiveSideBySide() {
        let router = CommandRouter()
        router.route("save", to: Selector(command: "save", arity: 0))
        #expect(router.routes["save"]?.arity == 0)
        let undoKitSelector: UndoKit.Selector = "setTitle:"
        #expect(undoKitSelector.name == "setTitle:")
        let manager = QuietUndoManager()
        #expect(manager.ignored == 0)
    }
}
