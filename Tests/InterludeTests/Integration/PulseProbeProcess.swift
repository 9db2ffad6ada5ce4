#if canImport(Glibc)
import Glibc
#endif
import Foundation
@testable import Interlude

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

    private let child: LineReadingChild<ProbeLine>

    /// Runs the probe with `arguments`. Without a `--latency` among them the probe plays at
    /// `.safe`: these tests record the sink and check positions on a loaded machine, where the
    /// shorter settings can underrun (`make bench`, scenario 15); a setting's own behaviour is
    /// tested by the tests that name one.
    init(environment: [String: String], arguments: [String]) throws {
        let arguments = arguments.contains("--latency") ? arguments : arguments + ["--latency", "safe"]
        child = try LineReadingChild([try Self.executable().path] + arguments, environment: environment) { text, receivedAt in
            guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else { return nil }
            return ProbeLine(fields: object, receivedAt: receivedAt)
        }
    }

    /// SIGKILL, for cleanup after a failed test.
    func kill() {
        child.kill()
    }

    var pid: pid_t { child.process.pid }
    var isRunning: Bool { child.process.isRunning }
    var stderrText: String { child.errorText }
    var allLines: [ProbeLine] { child.lines }
    var lineCount: Int { child.lineCount }
    /// The raw wait status once the probe has exited.
    var exitStatus: Int32? { child.process.status }
    /// The OpenAL Soft release the probe's device runs on (its `opened` line, debug builds),
    /// waiting for that line; nil when it never came or names none.
    var openALRelease: ALRelease? {
        waitFor("opened")?.line.string("openALRelease").flatMap { ALRelease(dotted: $0) }
    }

    /// How long a wait for an event that must come gives up after: its deadline only matters when
    /// the event never comes, and on a loaded machine a device's output start alone takes up to
    /// about 2 s. A test that asserts how soon an event comes checks that separately.
    static let eventTimeoutSeconds = 20.0

    /// The first line at or after `index` with `event` (and passing `where`), waiting up to
    /// `timeoutSeconds` (an event that must come: ``eventTimeoutSeconds``).
    func waitFor(_ event: String, from index: Int = 0, timeoutSeconds: Double = eventTimeoutSeconds,
                 where condition: (ProbeLine) -> Bool = { _ in true }) -> (index: Int, line: ProbeLine)? {
        child.waitFor(from: index, timeoutSeconds: timeoutSeconds) { $0.event == event && condition($0) }
    }

    /// Sends a command line on stdin.
    func send(_ command: String) {
        child.send(command)
    }

    /// Closes stdin (the probe shuts down) and waits for the exit; returns how long it took.
    func closeInputAndWait(timeoutSeconds: Double = 5) -> Duration? {
        let start = ContinuousClock.now
        child.closeInput()
        return waitForExit(from: start, timeoutSeconds: timeoutSeconds)
    }

    /// SIGTERM, then waits for the exit; returns how long it took.
    func terminateAndWait(timeoutSeconds: Double = 5) -> Duration? {
        let start = ContinuousClock.now
        child.process.send(SIGTERM)
        return waitForExit(from: start, timeoutSeconds: timeoutSeconds)
    }

    private func waitForExit(from start: ContinuousClock.Instant, timeoutSeconds: Double) -> Duration? {
        guard child.process.waitForExit(timeoutSeconds: timeoutSeconds) else { return nil }
        let elapsed = ContinuousClock.now - start
        child.waitForReaders()
        return elapsed
    }

    // MARK: /proc

    var threadCount: Int { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task").count) ?? -1 }
    var fdCount: Int { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1 }
}
