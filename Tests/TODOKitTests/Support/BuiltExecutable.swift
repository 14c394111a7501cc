import Foundation

/// Finds the `todo` executable that `swift build`/`swift test` put next to the test bundle.
///
/// SwiftPM writes every product of a build into one products directory (for example
/// `.build/debug/`), so the test runner and `todo` are siblings. The runner's own path is
/// `CommandLine.arguments[0]` when it is an executable (Linux) and `Bundle.main` when it is a
/// bundle loaded by a host (`xctest` on macOS); both are tried. As a last resort the package's
/// scratch directories next to this file's package root are searched, newest build first.
enum BuiltExecutable {
    static func url(named name: String, filePath: String = #filePath) -> URL? {
        var directories: [URL] = []
        let argument0 = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        directories.append(argument0.deletingLastPathComponent())
        if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            directories.append(executable.deletingLastPathComponent())
        }
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            directories.append(bundle.bundleURL.deletingLastPathComponent())
        }
        let packageRoot = URL(fileURLWithPath: filePath)
            .deletingLastPathComponent()   // Support
            .deletingLastPathComponent()   // TODOKitTests
            .deletingLastPathComponent()   // Tests
            .deletingLastPathComponent()
        directories += scratchProductDirectories(in: packageRoot)

        let fileManager = FileManager.default
        return directories
            .map { $0.appendingPathComponent(name) }
            .first { fileManager.isExecutableFile(atPath: $0.path) }
    }

    /// `<root>/.build*/debug` and `<root>/.build*/<triple>/debug`, most recently modified first.
    private static func scratchProductDirectories(in root: URL) -> [URL] {
        let fileManager = FileManager.default
        let scratch = (try? fileManager.contentsOfDirectory(atPath: root.path)) ?? []
        var candidates: [URL] = []
        for entry in scratch where entry.hasPrefix(".build") {
            let base = root.appendingPathComponent(entry)
            candidates.append(base.appendingPathComponent("debug"))
            for triple in (try? fileManager.contentsOfDirectory(atPath: base.path)) ?? [] {
                candidates.append(base.appendingPathComponent(triple).appendingPathComponent("debug"))
            }
        }
        func modified(_ url: URL) -> Date {
            ((try? fileManager.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date) ?? .distantPast
        }
        return candidates.sorted { modified($0) > modified($1) }
    }
}
