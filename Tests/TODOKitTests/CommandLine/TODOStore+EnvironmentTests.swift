import Testing
import TODOKit

@Suite struct TODOStoreDefaultLocationTests {
    @Test(arguments: [
        (["TODO_FILE": "/data/mine.db", "XDG_DATA_HOME": "/xdg", "HOME": "/home/me"], "/data/mine.db"),
        (["TODO_FILE": "", "XDG_DATA_HOME": "/xdg", "HOME": "/home/me"], "/xdg/undokit-todo/todo.db"),
        (["XDG_DATA_HOME": "/xdg", "HOME": "/home/me"], "/xdg/undokit-todo/todo.db"),
        (["XDG_DATA_HOME": "", "HOME": "/home/me"], "/home/me/.local/share/undokit-todo/todo.db"),
        (["XDG_DATA_HOME": "relative/dir", "HOME": "/home/me"], "/home/me/.local/share/undokit-todo/todo.db"),
        (["HOME": "/home/me"], "/home/me/.local/share/undokit-todo/todo.db"),
    ])
    func defaultFile(environment: [String: String], expected: String) {
        #expect(TODOStore.defaultFileURL(environment: environment).path == expected)
    }

    @Test func withoutHomeItFallsBackToTheUsersHomeDirectory() {
        let path = TODOStore.defaultFileURL(environment: [:]).path
        #expect(path.hasSuffix("/.local/share/undokit-todo/todo.db"))
        #expect(path.hasPrefix("/"))
    }
}
