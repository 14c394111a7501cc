// swift-tools-version:6.2
import PackageDescription

// UndoKit on a simulated Apple platform, on Linux: run.py builds and runs it (README, "On Apple
// platforms").
//
// Stand-ins for Apple's modules declare what Apple's SDK declares and Foundation on Linux does
// not: `AppleFoundation` (what `import Foundation` brings: `UndoManager`, its notification
// names, keys, constants and typed messages; it re-exports the `Darwin` and `ObjectiveC`
// stand-ins), `AppKit` and `UIKit` (their run loop modes). With those modules built,
// `canImport(Darwin)`, `canImport(ObjectiveC)`, `canImport(AppKit)` and `canImport(UIKit)` are
// true, as on an Apple platform (one with both AppKit and UIKit, so that every guard is tried).
//
// `UndoKit` is the package's own Sources/UndoKit (a symbolic link), compiled as on an Apple
// platform: with AppleFoundation imported into every file, as Foundation's undo names are
// there. Keep its settings in step with UndoKit's in the root Package.swift (Swift 6 mode).
let appleSDK: [Target.Dependency] = ["AppleFoundation", "AppKit", "UIKit"]

let package = Package(
    name: "ApplePlatformSimulation",
    targets: [
        .target(name: "Darwin"),
        .target(name: "ObjectiveC"),
        .target(name: "AppleFoundation", dependencies: ["Darwin", "ObjectiveC"]),
        .target(name: "AppKit", dependencies: ["AppleFoundation"]),
        .target(name: "UIKit", dependencies: ["AppleFoundation"]),
        .target(
            name: "UndoKit",
            dependencies: appleSDK,
            swiftSettings: [.unsafeFlags(["-Xfrontend", "-import-module", "-Xfrontend", "AppleFoundation"])]
        ),

        // Pattern (b): UndoKit's UndoManager everywhere, by a module-level typealias.
        .target(name: "PatternBLibrary", dependencies: appleSDK + ["UndoKit"]),
        .executableTarget(name: "PatternB", dependencies: appleSDK + ["UndoKit", "PatternBLibrary"]),
        .executableTarget(name: "PatternBClient", dependencies: ["AppleFoundation", "PatternBLibrary"]),

        // Pattern (a): Apple's UndoManager where Foundation has one. README's manifest for it
        // depends on UndoKit `.when(platforms: [.linux, .windows, .android, .wasi, .openbsd])`;
        // here Linux is left out of that list, so that Linux plays an Apple platform and the
        // dependency is dropped, and AppleFoundation is imported into every file, as Apple's
        // names come with `import Foundation`. Built in a scratch directory of its own (run.py),
        // where UndoKit is never built, as on an Apple platform; the same files are built on
        // Linux, with UndoKit, from README's manifest.
        .executableTarget(
            name: "PatternAOnApple",
            dependencies: [
                "AppleFoundation",
                .target(name: "UndoKit", condition: .when(platforms: [.windows, .android, .wasi, .openbsd])),
            ],
            swiftSettings: [.unsafeFlags(["-Xfrontend", "-import-module", "-Xfrontend", "AppleFoundation"])]
        ),
    ],
    swiftLanguageModes: [.v6]
)
