#if canImport(Glibc)
import Glibc
#endif
import Foundation
@testable import Interlude

/// A child process the test talks to by lines: it writes commands to the child's standard input,
/// and reads its standard output as lines, each parsed by `parse` (which may drop a line) with
/// the instant the test received it, and keeps its standard error as text. The probes
/// (PulseProbe, LogindStub) are run this way.
///
/// The reader threads hold only what they collect, not this object, so dropping it (or
/// ``kill()``) ends the child while they run.
final class LineReadingChild<Line: Sendable>: @unchecked Sendable {
    /// What the reader threads fill.
    private final class Collected: Sendable {
        let lines = AnnotatedMutex<[Line]>([])
        let errorText = AnnotatedMutex("")
        let readers = DispatchGroup()
    }

    let process: ChildProcess
    private let input: FileHandle
    private let collected = Collected()

    /// Starts `arguments` with `environment`; `parse` turns each line of its standard output,
    /// with when it arrived, into a `Line`, or nil to skip it.
    init(_ arguments: [String], environment: [String: String],
         parse: @escaping @Sendable (String, ContinuousClock.Instant) -> Line?) throws {
        let inputPipe = Pipe(), outputPipe = Pipe(), errorPipe = Pipe()
        // No other child (a server, parecord) may inherit these: the child's stdin must reach
        // EOF when the test closes it. dup2 in the child clears the flag on its 0, 1 and 2.
        for handle in [inputPipe.fileHandleForReading, inputPipe.fileHandleForWriting, outputPipe.fileHandleForReading,
                       outputPipe.fileHandleForWriting, errorPipe.fileHandleForReading, errorPipe.fileHandleForWriting] {
            _ = fcntl(handle.fileDescriptor, F_SETFD, FD_CLOEXEC)
        }
        process = try ChildProcess(arguments, environment: environment,
                                   stdin: inputPipe.fileHandleForReading.fileDescriptor,
                                   stdout: outputPipe.fileHandleForWriting.fileDescriptor,
                                   stderr: errorPipe.fileHandleForWriting.fileDescriptor)
        // The child holds its own copies; close ours so EOF arrives when it exits.
        try inputPipe.fileHandleForReading.close()
        try outputPipe.fileHandleForWriting.close()
        try errorPipe.fileHandleForWriting.close()
        input = inputPipe.fileHandleForWriting
        let outputHandle = outputPipe.fileHandleForReading, errorHandle = errorPipe.fileHandleForReading
        let collected = collected
        collected.readers.enter()
        Thread.detachNewThread {
            var pending = Data()
            while true {
                let chunk = outputHandle.availableData
                if chunk.isEmpty { break }
                let now = ContinuousClock.now
                pending.append(chunk)
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let text = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending = Data(pending[(newline + 1)...])
                    if let line = parse(text, now) { collected.lines.withLock { $0.append(line) } }
                }
            }
            collected.readers.leave()
        }
        collected.readers.enter()
        Thread.detachNewThread {
            while true {
                let chunk = errorHandle.availableData
                if chunk.isEmpty { break }
                collected.errorText.withLock { $0 += String(decoding: chunk, as: UTF8.self) }
            }
            collected.readers.leave()
        }
    }

    deinit {
        kill()
    }

    /// The lines read so far.
    var lines: [Line] { collected.lines.withLock { $0 } }
    var lineCount: Int { collected.lines.withLock { $0.count } }
    /// Everything the child wrote to its standard error so far.
    var errorText: String { collected.errorText.withLock { $0 } }

    /// The first line at or after `index` that passes `condition`, waiting up to `timeoutSeconds`.
    func waitFor(from index: Int, timeoutSeconds: Double, where condition: (Line) -> Bool) -> (index: Int, line: Line)? {
        let deadline = ContinuousClock.now + .seconds(timeoutSeconds)
        repeat {
            let found = collected.lines.withLock { lines -> (Int, Line)? in
                guard index < lines.count else { return nil }
                return (index..<lines.count).first { condition(lines[$0]) }.map { ($0, lines[$0]) }
            }
            if let found { return found }
            Thread.sleep(forTimeInterval: 0.002)
        } while ContinuousClock.now < deadline
        return nil
    }

    /// Writes `command` and a newline to the child's standard input.
    func send(_ command: String) {
        try? input.write(contentsOf: Data((command + "\n").utf8))
    }

    /// Closes the child's standard input (the probes stop on its end).
    func closeInput() {
        try? input.close()
    }

    /// Waits (up to 2 s) until both reader threads have seen the end of their pipe.
    func waitForReaders() {
        _ = collected.readers.wait(timeout: .now() + 2)
    }

    /// SIGKILL (for the end of a test, or a failed one), and the input closed.
    func kill() {
        process.stop(SIGKILL)
        closeInput()
    }
}
