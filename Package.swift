// swift-tools-version:6.2
import PackageDescription

// No package dependencies, by design: UndoKit and its benchmarks use only the toolchain (stdlib,
// Foundation, Dispatch, Swift Testing). The sample (TODOKit, `todo`) also links the system's
// SQLite through CSQLite and PostgreSQL's client library through CLibPQ, system library
// targets: nothing that depends on the UndoKit product compiles or links them.
let package = Package(
    name: "UndoKit",
    products: [
        .library(name: "UndoKit", targets: ["UndoKit"]),
        .library(name: "TODOKit", targets: ["TODOKit"]),
        .executable(name: "todo", targets: ["todo"]),
        .executable(name: "undokit-bench", targets: ["undokit-bench"]),
    ],
    targets: [
        .target(name: "UndoKit"),
        .testTarget(name: "UndoKitTests", dependencies: ["UndoKit"]),
        // Apple-style client code as written for older SDKs, compiled in Swift 5 language mode.
        .testTarget(
            name: "UndoKitSwift5Tests",
            dependencies: ["UndoKit"],
            path: "Tests/UndoKitSwift5Tests",
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // A client module that declares a `Selector` of its own beside UndoKit's stand-in.
        .testTarget(name: "UndoKitSelectorClashTests", dependencies: ["UndoKit"]),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .systemLibrary(
            name: "CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"]), .brew(["libpq"])]
        ),
        .target(name: "TODOKit", dependencies: ["UndoKit", "CSQLite", "CLibPQ"]),
        .executableTarget(name: "todo", dependencies: ["TODOKit"]),
        // Fixtures: data files written by earlier versions of `todo`, read by the tests by path.
        .testTarget(name: "TODOKitTests", dependencies: ["TODOKit", "todo"], exclude: ["Fixtures"]),
        .executableTarget(name: "undokit-bench", dependencies: ["UndoKit"], path: "Benchmarks/UndoKitBenchmarks"),
    ],
    swiftLanguageModes: [.v6]
)
