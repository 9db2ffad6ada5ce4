import Foundation
import Synchronization
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

/// Runs one of the bench package's executables, built next to the test binary.
enum ProductProcess {
    struct Run {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    /// The built executable `name`.
    static func executable(_ name: String) throws -> URL {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        let candidates = [folder, folder.deletingLastPathComponent(), Bundle.main.bundleURL.deletingLastPathComponent()]
            .map { $0.appendingPathComponent(name) }
        let found = candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
        return try #require(found, "\(name) is not built next to the tests; run `swift build --package-path bench --build-tests`")
    }

    /// Runs `name` with `arguments`, killed after `limitSeconds` (a hang guard); its output is
    /// read on threads of its own, so a chatty child cannot block it.
    static func run(_ name: String, _ arguments: [String], limitSeconds: Double = 60) throws -> Run {
        let process = Process()
        process.executableURL = try executable(name)
        process.arguments = arguments
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        let collected = Mutex<(output: Data, error: Data)>((Data(), Data()))
        let readers = DispatchGroup()
        for (pipe, isError) in [(output, false), (error, true)] {
            DispatchQueue.global().async(group: readers) {
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                collected.withLock { if isError { $0.error = data } else { $0.output = data } }
            }
        }
        try process.run()
        let deadline = Date().addingTimeInterval(limitSeconds)
        while process.isRunning {
            if Date() > deadline {
                process.terminate()
                break
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
        process.waitUntilExit()
        readers.wait()
        let data = collected.withLock { $0 }
        return Run(status: process.terminationStatus, standardOutput: String(decoding: data.output, as: UTF8.self),
                   standardError: String(decoding: data.error, as: UTF8.self))
    }
}
