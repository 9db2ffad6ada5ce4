#if canImport(Glibc)
import Glibc
#endif
import Foundation
@testable import Interlude
import Synchronization

/// The LogindStub executable (Tests/LogindStub): a stand-in logind on a ``PrivateSystemBus``,
/// driven by command lines on its standard input, reporting what it saw (inhibitor locks taken
/// and released, session lookups) as lines on its standard output.
final class LogindStubProcess: @unchecked Sendable {
    private let process: ChildProcess
    private let input: FileHandle
    /// What the stub wrote, filled by the reader threads (which hold only this, so the process
    /// object can go, and kill the stub, while they run).
    private final class Output: Sendable {
        let lines = AnnotatedMutex<[String]>([])
        let errorText = AnnotatedMutex("")
    }

    private let output = Output()

    /// Starts the stub on `bus`; waits for it to own org.freedesktop.login1.
    init(on bus: PrivateSystemBus, timeoutSeconds: Double = 20) throws {
        let inputPipe = Pipe(), outputPipe = Pipe(), errors = Pipe()
        for handle in [inputPipe.fileHandleForReading, inputPipe.fileHandleForWriting, outputPipe.fileHandleForReading,
                       outputPipe.fileHandleForWriting, errors.fileHandleForReading, errors.fileHandleForWriting] {
            _ = fcntl(handle.fileDescriptor, F_SETFD, FD_CLOEXEC)
        }
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = bus.address
        process = try ChildProcess([try ProductProcess.executable("LogindStub").path], environment: environment,
                                   stdin: inputPipe.fileHandleForReading.fileDescriptor,
                                   stdout: outputPipe.fileHandleForWriting.fileDescriptor,
                                   stderr: errors.fileHandleForWriting.fileDescriptor)
        try inputPipe.fileHandleForReading.close()
        try outputPipe.fileHandleForWriting.close()
        try errors.fileHandleForWriting.close()
        input = inputPipe.fileHandleForWriting
        let outputHandle = outputPipe.fileHandleForReading, errorHandle = errors.fileHandleForReading
        let output = self.output
        Thread.detachNewThread {
            var pending = Data()
            while true {
                let chunk = outputHandle.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending = Data(pending[(newline + 1)...])
                    output.lines.withLock { $0.append(line) }
                }
            }
        }
        Thread.detachNewThread {
            while true {
                let chunk = errorHandle.availableData
                if chunk.isEmpty { break }
                output.errorText.withLock { $0 += String(decoding: chunk, as: UTF8.self) }
            }
        }
        guard waitFor("ready", timeoutSeconds: timeoutSeconds) != nil else {
            stop()
            throw TestFailure("LogindStub did not start: \(stderrText)")
        }
    }

    deinit {
        stop()
    }

    var stderrText: String { output.errorText.withLock { $0 } }
    var allLines: [String] { output.lines.withLock { $0 } }

    /// The first line at or after `index` starting with `prefix`, waiting up to `timeoutSeconds`.
    func waitFor(_ prefix: String, from index: Int = 0, timeoutSeconds: Double) -> (index: Int, line: String)? {
        let deadline = ContinuousClock.now + .seconds(timeoutSeconds)
        repeat {
            let found = output.lines.withLock { lines -> (Int, String)? in
                guard index < lines.count else { return nil }
                return (index..<lines.count).first { lines[$0].hasPrefix(prefix) }.map { ($0, lines[$0]) }
            }
            if let found { return found }
            Thread.sleep(forTimeInterval: 0.005)
        } while ContinuousClock.now < deadline
        return nil
    }

    /// Sends a command: sleep, wake, inactive, active.
    func send(_ command: String) {
        try? input.write(contentsOf: Data((command + "\n").utf8))
    }

    /// Kills the stub (logind gone, or the end of a test).
    func stop() {
        process.stop(SIGKILL)
        try? input.close()
    }
}
