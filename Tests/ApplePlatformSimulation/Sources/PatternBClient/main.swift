// A client of a pattern (b) library that does not itself import UndoKit: `UndoManager` is
// Apple's here (the library's typealias is internal), and the library's manager is UndoKit's.
import AppleFoundation
import Foundation
import PatternBLibrary

let document = Document()
let appleManager: UndoManager? = nil   // Apple's, unambiguous
let names = (String(reflecting: type(of: appleManager)), String(reflecting: type(of: document.undoManager)))
guard names == ("Swift.Optional<AppleFoundation.UndoManager>", "UndoKit.UndoManager") else {
    print("pattern (b), a library's client: FAILED: \(names)")
    exit(1)
}
print("pattern (b), a library's client without `import UndoKit`: ok")
