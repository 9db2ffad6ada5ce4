#if canImport(Glibc)
import Glibc
#endif
import Foundation
@testable import Interlude
import Synchronization

/// One JSON line from the PulseProbe child, stamped with when the test received it.
struct ProbeLine: @unchecked Sendable {
    let fields: [String: Any]
    let receivedAt: ContinuousClock.Instant
    var event: String { fields["event"] as? String ?? "" }
    func int(_ key: String) -> Int? { (fields[key] as? NSNumber)?.intValue }
    func double(_ key: String) -> Double? { (fields[key] as? NSNumber)?.doubleValue }
    func string(_ key: String) -> String? { fields[key] as? String }
    func bool(_ key: String) -> Bool? { (fields[key] as? NSNumber)?.boolValue }
}

/// The PulseProbe executable (Tests/PulseProbe) running an engine against a private server.
final class PulseProbeProcess: @unchecked Sendable {
    /// The repository, found from this file's path.
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let sweepPath = repository.appendingPathComponent("assets/music/sweep.ogg").path

    /// PulseProbe, built next to the test bundle.
    static func executable() throws -> URL {
        var folders = [URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
        if let bundle = Bundle.main.executableURL { folders.append(bundle.deletingLastPathComponent()) }
        for folder in folders {
            let candidate = folder.appendingPathComponent("PulseProbe")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw TestFailure("PulseProbe is not built next to the tests (\(folders.map(\.path))); run `swift build --build-tests`")
    }

    private let process: ChildProcess
    private let input: FileHandle
    private let lines = AnnotatedMutex<[ProbeLine]>([])
    private let errorText = AnnotatedMutex("")
    private let readers = DispatchGroup()

    init(environment: [String: String], arguments: [String]) throws {
        let inputPipe = Pipe(), output = Pipe(), errors = Pipe()
        // No other child (the server, parecord) may inherit these: the probe's stdin must reach
        // EOF when the test closes it. dup2 in the child clears the flag on its 0, 1 and 2.
        for handle in [inputPipe.fileHandleForReading, inputPipe.fileHandleForWriting, output.fileHandleForReading,
                       output.fileHandleForWriting, errors.fileHandleForReading, errors.fileHandleForWriting] {
            _ = fcntl(handle.fileDescriptor, F_SETFD, FD_CLOEXEC)
        }
        process = try ChildProcess([try Self.executable().path] + arguments, environment: environment,
                                   stdin: inputPipe.fileHandleForReading.fileDescriptor,
                                   stdout: output.fileHandleForWriting.fileDescriptor,
                                   stderr: errors.fileHandleForWriting.fileDescriptor)
        // The child holds its own copies; close ours so EOF arrives when it exits.
        try inputPipe.fileHandleForReading.close()
        try output.fileHandleForWriting.close()
        try errors.fileHandleForWriting.close()
        input = inputPipe.fileHandleForWriting
        let outputHandle = output.fileHandleForReading
        let errorHandle = errors.fileHandleForReading
        readers.enter()
        Thread.detachNewThread { [self] in
            var pending = Data()
            while true {
                let chunk = outputHandle.availableData
                if chunk.isEmpty { break }
                let now = ContinuousClock.now
                pending.append(chunk)
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = pending[pending.startIndex..<newline]
                    pending = Data(pending[(newline + 1)...])
                    if let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any] {
                        lines.withLock { $0.append(ProbeLine(fields: object, receivedAt: now)) }
                    }
                }
            }
            readers.leave()
        }
        readers.enter()
        Thread.detachNewThread { [self] in
            while true {
                let chunk = errorHandle.availableData
                if chunk.isEmpty { break }
                errorText.withLock { $0 += String(decoding: chunk, as: UTF8.self) }
            }
            readers.leave()
        }
    }


    /// SIGKILL, for cleanup after a failed test (the reader threads hold this object).
    func kill() {
        process.stop(SIGKILL)
        try? input.close()
    }

    var pid: pid_t { process.pid }
    var isRunning: Bool { process.isRunning }
    /// The raw wait status once the probe has exited.
    var exitStatus: Int32? { process.status }
    var stderrText: String { errorText.withLock { $0 } }
    var allLines: [ProbeLine] { lines.withLock { $0 } }
    var lineCount: Int { lines.withLock { $0.count } }

    /// The first line at or after `index` with `event` (and passing `where`), waiting up to `timeoutSeconds`.
    func waitFor(_ event: String, from index: Int = 0, timeoutSeconds: Double,
                 where condition: (ProbeLine) -> Bool = { _ in true }) -> (index: Int, line: ProbeLine)? {
        let deadline = ContinuousClock.now + .seconds(timeoutSeconds)
        repeat {
            let found = lines.withLock { lines -> (Int, ProbeLine)? in
                guard index < lines.count else { return nil }
                for position in index..<lines.count where lines[position].event == event && condition(lines[position]) {
                    return (position, lines[position])
                }
                return nil
            }
            if let found { return found }
            Thread.sleep(forTimeInterval: 0.002)
        } while ContinuousClock.now < deadline
        return nil
    }

    /// Sends a command line on stdin.
    func send(_ command: String) {
        try? input.write(contentsOf: Data((command + "\n").utf8))
    }

    /// Closes stdin (the probe shuts down) and waits for the exit; returns how long it took.
    func closeInputAndWait(timeoutSeconds: Double = 5) -> Duration? {
        let start = ContinuousClock.now
        try? input.close()
        return waitForExit(from: start, timeoutSeconds: timeoutSeconds)
    }

    /// SIGTERM, then waits for the exit; returns how long it took.
    func terminateAndWait(timeoutSeconds: Double = 5) -> Duration? {
        let start = ContinuousClock.now
        process.send(SIGTERM)
        return waitForExit(from: start, timeoutSeconds: timeoutSeconds)
    }

    private func waitForExit(from start: ContinuousClock.Instant, timeoutSeconds: Double) -> Duration? {
        guard process.waitForExit(timeoutSeconds: timeoutSeconds) else { return nil }
        let elapsed = ContinuousClock.now - start
        _ = readers.wait(timeout: .now() + 2)
        return elapsed
    }

    // MARK: /proc

    var threadCount: Int { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task").count) ?? -1 }
    var fdCount: Int { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1 }
}
