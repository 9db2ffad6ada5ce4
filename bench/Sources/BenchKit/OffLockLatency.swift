#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Histogram
@_spi(Tools) import Interlude
import Synchronization

/// Scenario 17: a game thread's `setPosition` latency while the engine does slow work that runs
/// off the engine lock: writing snapshots (an interruption begun and ended in a loop, each
/// begin writing the state file), and a device reopen attempt stuck on a frozen audio server
/// (a private PulseAudio server stopped with SIGSTOP, so `alcOpenDevice` blocks). It runs in
/// a child process, since OpenAL Soft picks its backend once per process.
public enum OffLockLatency {
    /// What the child measured: nanoseconds per call, p50, p99.9 and max, for each phase.
    public struct Figures: Sendable {
        /// setPosition p50, p99.9 and max in nanoseconds while snapshots were written.
        public var snapshotCalls: [Double]
        /// Interruptions begun (each writing a snapshot) meanwhile.
        public var snapshotCount: Int
        /// The same with no state path: the interruptions alone, the control.
        public var controlCalls: [Double]
        /// setPosition p50, p99.9 and max in nanoseconds while the reopen was stuck.
        public var reopenCalls: [Double]
        /// setPosition calls made while the reopen was stuck.
        public var reopenCallCount: Int

        /// The figures as the child prints them: one line of numbers.
        public var line: String {
            (snapshotCalls + [Double(snapshotCount)] + controlCalls + reopenCalls + [Double(reopenCallCount)]).map { "\($0)" }.joined(separator: " ")
        }

        /// Parses ``line``.
        public init?(line: String) {
            let numbers = line.split(separator: " ").compactMap { Double(String($0)) }
            guard numbers.count == 11 else { return nil }
            self.init(snapshotCalls: Array(numbers[0..<3]), snapshotCount: Int(numbers[3]), controlCalls: Array(numbers[4..<7]),
                      reopenCalls: Array(numbers[7..<10]), reopenCallCount: Int(numbers[10]))
        }

        init(snapshotCalls: [Double], snapshotCount: Int, controlCalls: [Double], reopenCalls: [Double], reopenCallCount: Int) {
            self.snapshotCalls = snapshotCalls
            self.snapshotCount = snapshotCount
            self.controlCalls = controlCalls
            self.reopenCalls = reopenCalls
            self.reopenCallCount = reopenCallCount
        }
    }

    /// Calls `setPosition` on `voice` in a loop while `keepGoing` holds, 100 µs apart, and
    /// returns p50, p99.9 and max in nanoseconds, and the number of calls.
    static func measureCalls(_ engine: SoundEngine, voice: VoiceHandle, while keepGoing: () -> Bool) -> ([Double], Int) {
        var histogram = Histogram<UInt64>(highestTrackableValue: 60_000_000_000, numberOfSignificantValueDigits: .three)
        var index = 0
        while keepGoing() {
            let start = ContinuousClock.now
            try? engine.setPosition(Vector3(Float(index % 9) - 4, 0, -2), of: voice)
            let parts = (ContinuousClock.now - start).components
            _ = histogram.record(UInt64(max(1, parts.seconds * 1_000_000_000 + parts.attoseconds / 1_000_000_000)))
            index += 1
            usleep(100)
        }
        return ([Double(histogram.valueAtPercentile(50)), Double(histogram.valueAtPercentile(99.9)), Double(histogram.maxRecorded)], index)
    }

    /// The child. Phase 1: ``interruptionLoop(statePath:seconds:format:samples:)`` with a state
    /// path, then without (the control). Phase 2: on an engine on the parent's server, with
    /// a looping voice, the device is taken away,
    /// the server frozen (SIGSTOP by `serverPID`) so the reopen attempt blocks, and for
    /// `seconds` the game thread moves the voice; then the server is let go (SIGCONT).
    public static func measureInChild(serverPID: Int32, seconds: Double) throws -> Figures {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("interlude-offlock-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let samples = (0..<48_000).map { Float(0.25 * sin(2 * Double.pi * 440 * Double($0) / 48_000)) }
        let format = AudioFormat(sampleRate: 48_000, channelCount: 1)

        // The real-time engine on the parent's server, opened first: OpenAL Soft reads its
        // configuration (the latency) when the first device opens.
        let engine = try SoundEngine(configuration: .init(output: .systemDefault))
        defer { engine.shutdown() }
        let tone = try engine.makeSound(name: "tone", format: format, samples: samples)
        let voice = try engine.play(tone, parameters: VoiceParameters(position: Vector3(0, 0, -2), isLooping: true))

        // Phase 1: snapshots written while the game plays, then the same without a state path.
        let snapshot = try interruptionLoop(statePath: folder.appendingPathComponent("offline-state.json").path,
                                            seconds: seconds, format: format, samples: samples)
        let control = try interruptionLoop(statePath: nil, seconds: seconds, format: format, samples: samples)

        // Phase 2: a reopen attempt stuck on a frozen server.
        engine.disconnectDevice()
        kill(serverPID, SIGSTOP)
        defer { kill(serverPID, SIGCONT) }
        let stuckDeadline = Measure.wallSeconds() + 5
        while !engine.statistics.isDeviceReopening {
            guard Measure.wallSeconds() < stuckDeadline else {
                throw InterludeError(.deviceUnavailable, "OffLockLatency: no reopen attempt began within 5 s of the loss")
            }
            Thread.sleep(forTimeInterval: 0.005)
        }
        let reopenEnd = Measure.wallSeconds() + seconds
        let reopen = measureCalls(engine, voice: voice) { Measure.wallSeconds() < reopenEnd }
        guard engine.statistics.isDeviceReopening else {
            throw InterludeError(.deviceUnavailable, "OffLockLatency: the reopen attempt ended while the server was frozen")
        }
        kill(serverPID, SIGCONT)
        return Figures(snapshotCalls: snapshot.calls, snapshotCount: snapshot.begun, controlCalls: control.calls,
                       reopenCalls: reopen.0, reopenCallCount: reopen.1)
    }

    /// An offline engine (its begin and end cost no server round trip: pausing a PulseAudio
    /// device waits for the server) with a looping voice, and `statePath`; for `seconds`,
    /// another thread begins and ends an interruption every 5 ms (each begin writing the
    /// snapshot when there is a state path) while the game thread moves the voice.
    static func interruptionLoop(statePath: String?, seconds: Double, format: AudioFormat,
                                 samples: [Float]) throws -> (calls: [Double], begun: Int) {
        var configuration = SoundEngine.Configuration(output: .offline(sampleRate: 48_000, channelCount: 2))
        configuration.statePath = statePath
        let engine = try SoundEngine(configuration: configuration)
        defer { engine.shutdown() }
        let tone = try engine.makeSound(name: "tone", format: format, samples: samples)
        let voice = try engine.play(tone, parameters: VoiceParameters(position: Vector3(0, 0, -2), isLooping: true))
        let end = Measure.wallSeconds() + seconds
        let begun = Atomic<Int>(0)
        let done = DispatchSemaphore(value: 0)
        let interrupter = Thread { [engine] in
            while Measure.wallSeconds() < end {
                try? engine.beginInterruption(reason: .other)
                begun.wrappingAdd(1, ordering: .relaxed)
                try? engine.endInterruption(shouldResume: true)
                // 200 snapshots a second, far more than a game makes, without starving the game.
                usleep(5_000)
            }
            done.signal()
        }
        interrupter.start()
        let calls = measureCalls(engine, voice: voice) { Measure.wallSeconds() < end }
        done.wait()
        return (calls.0, begun.load(ordering: .relaxed))
    }

    /// The parent: starts a private PulseAudio server and runs `executable` with
    /// `arguments + [server PID]` against it (the child prints a ``Figures`` line last).
    public static func run(executable: URL, arguments: [String]) throws -> Figures {
        let server = try BenchPulseServer(label: "offlock")
        defer { server.stop() }
        let text = try server.runClient(executable, arguments: arguments + ["\(server.pid)"], scenario: "OffLockLatency")
        guard let figures = text.split(separator: "\n").last.flatMap({ Figures(line: String($0)) }) else {
            throw InterludeError(.deviceUnavailable, "OffLockLatency: the child printed no figures: \(text)")
        }
        return figures
    }
}

extension Bench {
    /// The rows of scenario 17: reported, with issue 15's goal (no call waits more than 1 ms).
    public func offLockRows(_ figures: OffLockLatency.Figures) -> [BenchRow] {
        let scenario = "17. Off the lock"
        var rows: [BenchRow] = []
        for (phase, values) in [("snapshots are written (an interruption begun and ended every 5 ms, offline)", figures.snapshotCalls),
                                ("the same interruptions, no state path (control)", figures.controlCalls),
                                ("a device reopen is stuck on a frozen PulseAudio server", figures.reopenCalls)] {
            for (label, index) in [("p50", 0), ("p99.9", 1), ("max", 2)] {
                let microseconds = values[index] / 1_000
                rows.append(BenchRow(scenario: scenario, measure: "setPosition on the game thread while \(phase), \(label)", unit: "µs",
                                     engine: microseconds, goal: label == "max" ? "<= 1 ms" : nil,
                                     isGoalMet: label == "max" ? microseconds <= 1_000 : nil))
            }
        }
        rows.append(BenchRow(scenario: scenario, measure: "snapshots written in the same time (one per begin)", unit: "",
                             engine: Double(figures.snapshotCount)))
        rows.append(BenchRow(scenario: scenario, measure: "setPosition calls made while the reopen was stuck", unit: "",
                             engine: Double(figures.reopenCallCount)))
        return rows
    }
}
