import Foundation
@testable import Interlude
import Synchronization
import Testing

/// Ctrl-Z and fg on a real process: JobControlProbe (an engine on the null backend with
/// handlesJobControl) gets SIGTSTP, stops, gets SIGCONT, and resumes its soundtrack.
/// It opens its device in its own process, so it needs no place in EngineSuites.
@Suite struct JobControlTests {
    /// The probe, built next to the test binary.
    static var probePath: String? {
        let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var folder = testBinary.deletingLastPathComponent()
        // The xctest bundle may be a folder on some toolchains: look a few levels up.
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("JobControlProbe").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }

    /// The one-letter state in /proc/PID/stat ("T" when stopped).
    static func processState(_ pid: Int32) -> String? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        return stat[stat.index(close, offsetBy: 2)...].split(separator: " ").first.map(String.init)
    }

    /// Sends SIGTSTP to `pid` (a child with job control on: it interrupts, then stops itself)
    /// and waits up to 15 s for it to be stopped. Returns whether it stopped.
    static func stopWithSIGTSTP(_ pid: Int32) -> Bool {
        kill(pid, SIGTSTP)
        let deadline = ContinuousClock.now + .seconds(15)
        while processState(pid) != "T" && ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        return processState(pid) == "T"
    }

    /// The probe's output, kept as text lines (Sendable) and parsed when read.
    final class Lines: Sendable {
        private let text = AnnotatedMutex<[String]>([])
        private let partial = AnnotatedMutex<[UInt8]>([])

        func feed(_ data: Data) {
            let complete: [String] = partial.withLock { buffer in
                buffer += Array(data)
                var found: [String] = []
                while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    found.append(String(decoding: buffer[..<newline], as: UTF8.self))
                    buffer.removeSubrange(...newline)
                }
                return found
            }
            text.withLock { $0 += complete }
        }

        var all: [[String: Any]] {
            text.withLock { $0 }.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
        }
    }

    @Test("SIGTSTP interrupts (position saved) and stops the process; SIGCONT resumes the soundtrack where it was")
    func stopAndContinue() throws {
        let probe = try #require(Self.probePath, "JobControlProbe not built next to the test binary")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: probe)
        process.arguments = [SessionAssets.sweep, "3"]
        var environment = ProcessInfo.processInfo.environment
        environment["ALSOFT_DRIVERS"] = "null"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        let lines = Lines()
        output.fileHandleForReading.readabilityHandler = { handle in lines.feed(handle.availableData) }
        try process.run()
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGCONT); process.terminate() }
        }
        let pid = process.processIdentifier

        func waitFor(_ seconds: Double, _ condition: () -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if condition() { return true }
                usleep(10_000)
            }
            return condition()
        }
        func positions() -> [Int] {
            lines.all.filter { $0["event"] as? String == "position" }.compactMap { $0["positionInFrames"] as? Int }
        }

        #expect(waitFor(5) { positions().count >= 5 }, "the probe printed no positions: \(lines.all)")
        kill(pid, SIGTSTP)
        #expect(waitFor(2) { Self.processState(pid) == "T" }, "state \(Self.processState(pid) ?? "?") after SIGTSTP")
        // Lines the probe wrote just before it stopped may still be in the pipe: let the reader
        // drain them (the count holds still for 200 ms) before counting.
        var countWhileStopped = lines.all.count
        repeat {
            countWhileStopped = lines.all.count
            usleep(200_000)
        } while lines.all.count != countWhileStopped
        usleep(500_000)
        #expect(Self.processState(pid) == "T")
        #expect(lines.all.count == countWhileStopped, "the probe printed while stopped")
        kill(pid, SIGCONT)
        #expect(waitFor(2) { Self.processState(pid).map { $0 != "T" } ?? true })
        process.waitUntilExit()
        usleep(100_000)
        #expect(process.terminationStatus == 0)

        let all = lines.all
        let began = all.firstIndex { $0["event"] as? String == "began" }
        let ended = all.firstIndex { $0["event"] as? String == "ended" }
        let suspended = all.first { $0["event"] as? String == "musicSuspended" }?["positionInFrames"] as? Int
        let resumed = all.first { $0["event"] as? String == "musicResumed" }?["positionInFrames"] as? Int
        #expect(began.map { all[$0]["reason"] as? String } == "jobControl")
        #expect(ended.map { all[$0]["shouldResume"] as? Bool } == true)
        #expect(ended.map { all[$0]["music"] as? Bool } == true)
        #expect(suspended != nil && suspended == resumed, "suspended at \(String(describing: suspended)), resumed at \(String(describing: resumed))")
        guard let began, let ended, let resumed else { return }
        #expect(began < ended)
        // The last position printed before the stop and the first after the resume.
        let before = all[..<began].last { $0["event"] as? String == "position" }?["positionInFrames"] as? Int ?? -1
        let after = all[ended...].filter { $0["event"] as? String == "position" }.compactMap { $0["positionInFrames"] as? Int }
        print("job control: last position before SIGTSTP \(before), suspended \(String(describing: suspended)), resumed \(resumed), after \(after.prefix(3))")
        #expect(before <= resumed && resumed - before < 44_100 / 2, "suspended \(resumed - before) frames after the last report")
        let firstAfter = try #require(after.first)
        #expect(firstAfter >= resumed && firstAfter - resumed < 44_100 / 2, "first position after SIGCONT: \(firstAfter)")
        #expect(after.count >= 3 && after.last! > firstAfter, "the position advances after the resume")
    }
}
