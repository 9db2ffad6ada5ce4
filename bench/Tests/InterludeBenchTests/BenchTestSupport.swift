import Foundation
import Testing

/// Every bench suite that opens an OpenAL device nests here: the current context is process-global.
@Suite(.serialized) struct BenchSuites {}

/// A failed precondition, named.
struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Paths in the repository: the bench package is its `bench` folder.
enum BenchTestPaths {
    /// The repository's root, where the engine's package, docs/ and README.md are.
    static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }

    /// Whether `tools` are all on the PATH.
    static func areInstalled(_ tools: [String]) -> Bool {
        tools.allSatisfy { tool in
            (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains {
                FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)")
            }
        }
    }
}

/// The bench package's executables, built next to the test binary.
enum ProductProcess {
    /// The built executable `name`.
    static func executable(_ name: String) throws -> URL {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        let candidates = [folder, folder.deletingLastPathComponent(), Bundle.main.bundleURL.deletingLastPathComponent()]
            .map { $0.appendingPathComponent(name) }
        let found = candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
        return try #require(found, "\(name) is not built next to the tests; run `swift build --package-path bench --build-tests`")
    }
}
