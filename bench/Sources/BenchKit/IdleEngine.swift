import Foundation
import Interlude

/// Scenario 11's idle row: what an engine open with nothing playing costs (the default
/// configuration on OpenAL Soft's null backend), in its own process. The parent reads the child's
/// threads in /proc/PID/task: CPU time from each one's schedstat, wake-ups as its voluntary plus
/// nonvoluntary context switches from its status, over a stretch in which the child's main thread
/// waits in a read of its standard input.
public enum IdleEngine {
    /// One thread's cost over the measured stretch.
    public struct ThreadFigures: Sendable, Equatable {
        /// "main thread", or the thread's name (/proc/PID/task/TID/comm; a thread nobody named
        /// has the process's), numbered when several share it.
        public var name: String
        /// CPU time, in percent of one core.
        public var cpuPercent: Double
        /// Context switches per second.
        public var wakeupsPerSecond: Double
    }

    /// The whole process's cost over the measured stretch, and each thread's.
    public struct Figures: Sendable {
        /// Wall seconds measured.
        public var seconds: Double
        /// CPU time of every thread, in percent of one core.
        public var cpuPercent: Double
        /// Context switches of every thread per second.
        public var wakeupsPerSecond: Double
        /// Every thread, the one that wakes most first.
        public var threads: [ThreadFigures]
    }

    /// The child (`InterludeBench --idle-engine-child`): opens the engine, says "ready", and waits for
    /// its standard input to close.
    public static func runInChild() throws {
        var configuration = SoundEngine.Configuration(output: .null)
        configuration.mediaRole = nil
        let engine = try SoundEngine(configuration: configuration)
        defer { engine.shutdown() }
        FileHandle.standardOutput.write(Data("ready\n".utf8))
        _ = FileHandle.standardInput.readDataToEndOfFile()
    }

    /// How long an idle engine with `configuration` is left before it is measured: a second, and
    /// then the pause of its output once it is due (``SoundEngine/Configuration/idleOutputPauseSeconds``,
    /// with half a second for the driver's idle check to see it), so that the figures are those of
    /// the engine idle for good.
    public static func settleSeconds(_ configuration: SoundEngine.Configuration) -> Double {
        1 + (configuration.idleOutputPauseSeconds.map { $0 + 0.5 } ?? 0)
    }

    /// Starts `executable --idle-engine-child` with OpenAL Soft's null backend, lets it settle
    /// for `settle` seconds after it is ready (by default until its idle output is paused,
    /// ``settleSeconds(_:)``), then measures it for `seconds`.
    public static func measure(executable: URL, seconds: Double,
                               settle: Double = IdleEngine.settleSeconds(SoundEngine.Configuration())) throws -> Figures {
        let process = Process()
        process.executableURL = executable
        process.arguments = ["--idle-engine-child"]
        process.environment = ProcessInfo.processInfo.environment.merging(["ALSOFT_DRIVERS": "null"]) { $1 }
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        defer {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
        var said = Data()
        while !String(decoding: said, as: UTF8.self).contains("ready\n") {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw BenchError("idle engine child (\(executable.path)) ended before it was ready: \(String(decoding: said, as: UTF8.self))") }
            said += chunk
        }
        Thread.sleep(forTimeInterval: settle)
        let before = sample(pid: process.processIdentifier)
        let start = Measure.wallSeconds()
        Thread.sleep(forTimeInterval: seconds)
        let after = sample(pid: process.processIdentifier)
        let wall = Measure.wallSeconds() - start
        guard process.isRunning, !after.isEmpty else { throw BenchError("idle engine child (\(executable.path)) ended while measured") }
        return figures(before: before, after: after, seconds: wall, mainThread: String(process.processIdentifier))
    }

    /// One reading of a thread: its name, CPU nanoseconds and context switches so far.
    struct Reading: Equatable {
        var name: String
        var cpuNanoseconds: Double
        var switches: Double
    }

    /// Every thread of `pid`, by thread id.
    static func sample(pid: Int32) -> [String: Reading] {
        let folder = "/proc/\(pid)/task"
        var readings: [String: Reading] = [:]
        for tid in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            guard let schedstat = try? String(contentsOfFile: "\(folder)/\(tid)/schedstat", encoding: .utf8),
                  let status = try? String(contentsOfFile: "\(folder)/\(tid)/status", encoding: .utf8),
                  let name = try? String(contentsOfFile: "\(folder)/\(tid)/comm", encoding: .utf8),
                  let cpu = schedstat.split(separator: " ").first.flatMap({ Double($0) }) else { continue }
            let switches = status.split(separator: "\n")
                .filter { $0.hasPrefix("voluntary_ctxt_switches:") || $0.hasPrefix("nonvoluntary_ctxt_switches:") }
                .compactMap { $0.split(separator: ":").last.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) } }
                .reduce(0, +)
            readings[tid] = Reading(name: name.trimmingCharacters(in: .whitespacesAndNewlines), cpuNanoseconds: cpu, switches: switches)
        }
        return readings
    }

    /// The figures between two samples `seconds` apart; a thread born in between counts from zero.
    /// `mainThread` is the process's id, its main thread's.
    static func figures(before: [String: Reading], after: [String: Reading], seconds: Double, mainThread: String) -> Figures {
        let unnamed = after.map { tid, reading in
            let start = before[tid] ?? Reading(name: reading.name, cpuNanoseconds: 0, switches: 0)
            return ThreadFigures(name: tid == mainThread ? "main thread" : reading.name,
                                 cpuPercent: (reading.cpuNanoseconds - start.cpuNanoseconds) * 1e-9 / seconds * 100,
                                 wakeupsPerSecond: (reading.switches - start.switches) / seconds)
        }.sorted { ($0.wakeupsPerSecond, $0.cpuPercent, $1.name) > ($1.wakeupsPerSecond, $1.cpuPercent, $0.name) }
        // Threads that share a name are numbered, the one that wakes most first.
        var seen: [String: Int] = [:]
        let threads = unnamed.map { thread in
            guard unnamed.filter({ $0.name == thread.name }).count > 1 else { return thread }
            seen[thread.name, default: 0] += 1
            var numbered = thread
            numbered.name += " #\(seen[thread.name]!)"
            return numbered
        }
        return Figures(seconds: seconds, cpuPercent: threads.map(\.cpuPercent).reduce(0, +),
                       wakeupsPerSecond: threads.map(\.wakeupsPerSecond).reduce(0, +), threads: threads)
    }

    /// The rows of `figures`: the whole process against issue 30's goals, then each thread.
    public static func rows(_ figures: Figures) -> [BenchRow] {
        let scenario = "11. Peers"
        let what = "an idle engine (open, default configuration, OpenAL Soft null backend, nothing playing), \(Int(figures.seconds.rounded())) s"
        var rows = [
            BenchRow(scenario: scenario, measure: "\(what): CPU (every thread's schedstat)", unit: "% of a core",
                     engine: figures.cpuPercent, goal: "<= 0.1", isGoalMet: figures.cpuPercent <= 0.1, key: "idle/cpu"),
            BenchRow(scenario: scenario, measure: "\(what): wake-ups (voluntary + nonvoluntary context switches)", unit: "/s",
                     engine: figures.wakeupsPerSecond, goal: "<= 10", isGoalMet: figures.wakeupsPerSecond <= 10, key: "idle/wakeups"),
            BenchRow(scenario: scenario, measure: "\(what): threads", unit: "", engine: Double(figures.threads.count), key: "idle/threads"),
        ]
        for thread in figures.threads {
            rows.append(BenchRow(scenario: scenario, measure: "idle engine, thread \(thread.name): wake-ups", unit: "/s",
                                 engine: thread.wakeupsPerSecond, key: "idle/thread-wakeups/\(thread.name)"))
            rows.append(BenchRow(scenario: scenario, measure: "idle engine, thread \(thread.name): CPU", unit: "% of a core",
                                 engine: thread.cpuPercent, key: "idle/thread-cpu/\(thread.name)"))
        }
        return rows
    }
}
