#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Interlude
import Synchronization

/// Scenario 19: what opening an engine costs a game's frame loop, and what an open engine with
/// nothing playing costs the machine. Each runs in a child process, since OpenAL Soft picks its
/// backend once per process: on the null backend, and (start-up) on a private PulseAudio
/// server's null sink.
public enum StartAndIdle {
    /// How an engine is created: the blocking init, or `await SoundEngine.start`.
    public enum Creation: String, CaseIterable, Sendable {
        case blocking
        case async
    }

    /// Where the engine plays.
    public enum Output: String, CaseIterable, Sendable {
        /// OpenAL Soft's null backend.
        case null
        /// The system default device, in the child: a private PulseAudio server's null sink.
        case pulse
    }

    /// What a start-up child measured.
    public struct StartFigures: Sendable {
        /// The longest the game thread spent in one frame's engine calls (the init, or starting
        /// and polling the task that awaits `start`), in milliseconds.
        public var blockedMilliseconds: Double
        /// From the first frame until the engine was there, in milliseconds.
        public var readyMilliseconds: Double

        /// The figures as the child prints them.
        public var line: String { "\(blockedMilliseconds) \(readyMilliseconds)" }

        /// Parses ``line``.
        public init?(line: String) {
            let numbers = line.split(separator: " ").compactMap { Double($0) }
            guard numbers.count == 2 else { return nil }
            self.init(blockedMilliseconds: numbers[0], readyMilliseconds: numbers[1])
        }

        init(blockedMilliseconds: Double, readyMilliseconds: Double) {
            self.blockedMilliseconds = blockedMilliseconds
            self.readyMilliseconds = readyMilliseconds
        }
    }

    /// What an idle child measured over its window, its own (measuring) thread left out.
    public struct IdleFigures: Sendable {
        /// CPU time of the engine's threads over the wall time, in percent of one core.
        public var cpuPercent: Double
        /// Context switches (voluntary and not) of the engine's threads per second: each is a wake-up.
        public var wakeUpsPerSecond: Double
        /// The process's threads.
        public var threadCount: Int

        /// The figures as the child prints them.
        public var line: String { "\(cpuPercent) \(wakeUpsPerSecond) \(threadCount)" }

        /// Parses ``line``.
        public init?(line: String) {
            let numbers = line.split(separator: " ").compactMap { Double($0) }
            guard numbers.count == 3 else { return nil }
            self.init(cpuPercent: numbers[0], wakeUpsPerSecond: numbers[1], threadCount: Int(numbers[2]))
        }

        init(cpuPercent: Double, wakeUpsPerSecond: Double, threadCount: Int) {
            self.cpuPercent = cpuPercent
            self.wakeUpsPerSecond = wakeUpsPerSecond
            self.threadCount = threadCount
        }
    }

    /// A 60 Hz frame.
    static let frameSeconds = 1.0 / 60

    /// The start-up child: a frame loop on the calling thread that creates an engine on the
    /// system default device (`.null` on the null backend) the way `creation` says, and runs
    /// on until it has the engine.
    public static func measureStartInChild(creation: Creation, output: Output) throws -> StartFigures {
        let configuration = SoundEngine.Configuration(output: output == .null ? .null : .systemDefault)
        var engine: SoundEngine?
        var blockedSeconds = 0.0
        let firstFrame = Measure.wallSeconds()
        var frame = 0
        let finished = StartOutcome()
        while engine == nil {
            let workStart = Measure.wallSeconds()
            switch creation {
            case .blocking:
                engine = try SoundEngine(configuration: configuration)
            case .async:
                if frame == 0 { finished.begin(configuration) }
                engine = try finished.result?.get()
            }
            blockedSeconds = max(blockedSeconds, Measure.wallSeconds() - workStart)
            frame += 1
            if engine == nil { Thread.sleep(forTimeInterval: frameSeconds) }
        }
        let readySeconds = Measure.wallSeconds() - firstFrame
        engine?.shutdown()
        return StartFigures(blockedMilliseconds: blockedSeconds * 1_000, readyMilliseconds: readySeconds * 1_000)
    }

    /// The idle child: opens an engine on `output` with nothing playing (its output kept running
    /// while idle with `keepsOutputRunning`), lets it settle (``IdleEngine/settleSeconds(_:)``),
    /// then reads every other thread's CPU time and context switches
    /// from /proc before and after `seconds`.
    public static func measureIdleInChild(seconds: Double, output: Output, keepsOutputRunning: Bool) throws -> IdleFigures {
        var configuration = SoundEngine.Configuration(output: output == .null ? .null : .systemDefault)
        if keepsOutputRunning { configuration.idleOutputPauseSeconds = nil }
        let engine = try SoundEngine(configuration: configuration)
        defer { engine.shutdown() }
        Thread.sleep(forTimeInterval: IdleEngine.settleSeconds(configuration))
        let before = ThreadTimes.read()
        Thread.sleep(forTimeInterval: seconds)
        let after = ThreadTimes.read()
        var cpuNanoseconds = 0
        var switches = 0
        for (thread, times) in after.threads where thread != getpid() {
            let earlier = before.threads[thread] ?? ThreadTimes.Times(cpuNanoseconds: 0, switches: 0)
            cpuNanoseconds += times.cpuNanoseconds - earlier.cpuNanoseconds
            switches += times.switches - earlier.switches
        }
        return IdleFigures(cpuPercent: Double(cpuNanoseconds) / 1e9 / seconds * 100,
                           wakeUpsPerSecond: Double(switches) / seconds, threadCount: after.threads.count)
    }

    /// Runs `executable` with `arguments` as a start-up or idle child: on the null backend, or
    /// against a private PulseAudio server for `.pulse`. Returns its last line.
    static func runChild(_ executable: URL, arguments: [String], output: Output) throws -> String {
        let text: String
        switch output {
        case .null:
            text = try BenchChild.output(of: executable, arguments: arguments, extra: ["ALSOFT_DRIVERS": "null"],
                                         name: "StartAndIdle: the child")
        case .pulse:
            let server = try BenchPulseServer(label: "start")
            defer { server.stop() }
            text = try server.runClient(executable, arguments: arguments, scenario: "StartAndIdle")
        }
        return text.split(separator: "\n").last.map(String.init) ?? ""
    }
}

/// What the task awaiting `SoundEngine.start` gave, once it has: the frame loop polls it, as a
/// game checks each frame whether its audio is up.
final class StartOutcome: Sendable {
    private let outcome = Mutex<Result<SoundEngine, any Error>?>(nil)

    /// Awaits `SoundEngine.start(configuration:)` on a task of its own and keeps what it gave.
    func begin(_ configuration: SoundEngine.Configuration) {
        Task.detached {
            do {
                let engine = try await SoundEngine.start(configuration: configuration)
                self.keep(.success(engine))
            } catch {
                self.keep(.failure(error))
            }
        }
    }

    private func keep(_ result: Result<SoundEngine, any Error>) {
        outcome.withLock { $0 = result }
    }

    /// The task's result; nil while it runs.
    var result: Result<SoundEngine, any Error>? { outcome.withLock { $0 } }
}

/// Each thread of this process: its CPU time (/proc/self/task/N/schedstat) and its context
/// switches (voluntary and not, from its status).
struct ThreadTimes {
    struct Times {
        var cpuNanoseconds: Int
        var switches: Int
    }

    var threads: [Int32: Times] = [:]

    static func read() -> ThreadTimes {
        var result = ThreadTimes()
        let folder = "/proc/self/task"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            guard let thread = Int32(name),
                  let schedstat = try? String(contentsOfFile: "\(folder)/\(name)/schedstat", encoding: .utf8),
                  let status = try? String(contentsOfFile: "\(folder)/\(name)/status", encoding: .utf8),
                  let cpu = schedstat.split(separator: " ").first.flatMap({ Int($0) }) else { continue }
            let switches = status.split(separator: "\n").filter { $0.hasPrefix("voluntary_ctxt_switches") || $0.hasPrefix("nonvoluntary_ctxt_switches") }
                .compactMap { $0.split(separator: "\t").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } }
                .reduce(0, +)
            result.threads[thread] = Times(cpuNanoseconds: cpu, switches: switches)
        }
        return result
    }
}

extension Bench {
    /// Scenario 19's rows: the game thread's longest block while an engine starts, each way
    /// and on each output, and an idle engine's CPU and wake-ups on each output, with the default
    /// configuration (its output paused while idle) and with its output kept running. Reported
    /// against the goals (50 ms; 0.1% of a core and 10 wake-ups/s), not asserted.
    public func startAndIdle(executable: URL, idleSeconds: Double) throws -> [BenchRow] {
        progress("19. start-up without blocking, idle cost")
        var rows: [BenchRow] = []
        for output in StartAndIdle.Output.allCases {
            for creation in StartAndIdle.Creation.allCases {
                let line = try StartAndIdle.runChild(executable, arguments: ["--start-child", creation.rawValue, output.rawValue], output: output)
                guard let figures = StartAndIdle.StartFigures(line: line) else {
                    throw BenchError("StartAndIdle: the start-up child printed no figures: \(line)")
                }
                let way = creation == .blocking ? "SoundEngine(configuration:)" : "await SoundEngine.start(configuration:)"
                let device = output == .null ? ".null" : "PulseAudio null sink"
                rows.append(BenchRow(scenario: "19. Start-up and idle", measure: "\(way) on \(device): game thread's longest frame block",
                                     unit: "ms", engine: figures.blockedMilliseconds, goal: "<= 50 ms",
                                     isGoalMet: figures.blockedMilliseconds <= 50))
                rows.append(BenchRow(scenario: "19. Start-up and idle", measure: "\(way) on \(device): first frame to engine ready",
                                     unit: "ms", engine: figures.readyMilliseconds))
            }
        }
        for keepsOutputRunning in [false, true] {
            for output in StartAndIdle.Output.allCases {
                let line = try StartAndIdle.runChild(executable, arguments: ["--idle-child", "\(idleSeconds)", output.rawValue]
                                                        + (keepsOutputRunning ? ["running"] : []), output: output)
                guard let idle = StartAndIdle.IdleFigures(line: line) else {
                    throw BenchError("StartAndIdle: the idle child printed no figures: \(line)")
                }
                let device = output == .null ? ".null" : "PulseAudio null sink"
                // The goals are the default configuration's, which pauses the output while idle.
                let hasGoals = !keepsOutputRunning
                let engine = keepsOutputRunning ? "open engine, output kept running (idleOutputPauseSeconds nil)" : "open engine"
                rows.append(BenchRow(scenario: "19. Start-up and idle", measure: "\(engine), nothing playing, \(device): CPU of its threads over \(idleSeconds) s",
                                     unit: "% of a core", engine: idle.cpuPercent, goal: hasGoals ? "<= 0.1%" : nil,
                                     isGoalMet: hasGoals ? idle.cpuPercent <= 0.1 : nil))
                rows.append(BenchRow(scenario: "19. Start-up and idle", measure: "\(engine), nothing playing, \(device): wake-ups (context switches) of its threads",
                                     unit: "per s", engine: idle.wakeUpsPerSecond, goal: hasGoals ? "<= 10" : nil,
                                     isGoalMet: hasGoals ? idle.wakeUpsPerSecond <= 10 : nil))
                rows.append(BenchRow(scenario: "19. Start-up and idle", measure: "\(engine), nothing playing, \(device): threads in the process",
                                     unit: "threads", engine: Double(idle.threadCount)))
            }
        }
        return rows
    }
}
