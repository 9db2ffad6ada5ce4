import Foundation
@testable import Interlude
import Synchronization
import Testing

/// Runs one of the package's executables (interlude, the examples, probes) as a child process,
/// found next to the running test binary: the same scratch path and configuration.
enum ProductProcess {
    struct Run {
        var status: Int32
        var standardOutput: String
        var standardError: String
        var wasKilled: Bool
    }

    /// The built executable `name`.
    static func executable(_ name: String) throws -> URL {
        var candidates: [URL] = []
        if let first = CommandLine.arguments.first {
            let binary = URL(fileURLWithPath: first).resolvingSymlinksInPath()
            // .../debug/InterludePackageTests.xctest (a file on Linux, a bundle on macOS).
            candidates.append(binary.deletingLastPathComponent().appendingPathComponent(name))
            candidates.append(binary.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(name))
        }
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent(name))
        candidates.append(Bundle.main.bundleURL.appendingPathComponent(name))
        let found = candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
        return try #require(found, "\(name) executable not found; looked at \(candidates.map(\.path))")
    }

    /// Runs `name` with `arguments`, in this process's environment without `removing` and with
    /// `environment` added; kills it after `limitSeconds` (a hang guard). Standard output and
    /// error are read on their own threads, so a chatty or hung child cannot block the test.
    static func run(_ name: String, _ arguments: [String], in folder: URL? = nil, environment: [String: String] = [:],
                    removing: [String] = [], limitSeconds: Double = 60) throws -> Run {
        let process = Process()
        process.executableURL = try executable(name)
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = folder }
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "INTERLUDE_LOG_LEVEL")
        for key in removing { env.removeValue(forKey: key) }
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        let collected = AnnotatedMutex<(output: Data, error: Data)>((Data(), Data()))
        let readers = DispatchGroup()
        for (pipe, isError) in [(output, false), (error, true)] {
            DispatchQueue.global().async(group: readers) {
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                collected.withLock { if isError { $0.error = data } else { $0.output = data } }
            }
        }
        try process.run()
        let deadline = Date().addingTimeInterval(limitSeconds)
        var wasKilled = false
        while process.isRunning {
            if Date() > deadline {
                process.terminate()
                wasKilled = true
                break
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
        process.waitUntilExit()
        readers.wait()
        let data = collected.withLock { $0 }
        return Run(status: process.terminationStatus, standardOutput: String(decoding: data.output, as: UTF8.self),
                   standardError: String(decoding: data.error, as: UTF8.self), wasKilled: wasKilled)
    }
}
