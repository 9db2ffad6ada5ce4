import Foundation

/// A child process of the bench, run to its end: what it printed, or a ``BenchError`` naming it
/// with its exit status and output.
enum BenchChild {
    /// Runs `executable` with `arguments` and the bench's environment plus `environment`.
    static func output(of executable: URL, arguments: [String], environment extra: [String: String],
                       name: String) throws -> String {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        for (key, value) in extra { environment[key] = value }
        process.environment = environment
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
