import Foundation

/// A child process of the bench, run to its end: what it printed, or a ``BenchError`` naming it
/// with its exit status and output.
enum BenchChild {
    /// Runs `executable` with `arguments` in `environment` (by default the bench's own, plus
    /// `extra`).
    static func output(of executable: URL, arguments: [String], extra: [String: String] = [:],
                       environment: [String: String] = ProcessInfo.processInfo.environment, name: String) throws -> String {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment.merging(extra) { $1 }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchError("\(name) exited with \(process.terminationStatus): \(text)")
        }
        return text
    }
}
