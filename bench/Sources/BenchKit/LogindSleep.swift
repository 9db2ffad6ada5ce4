#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Interlude
import Synchronization

/// Scenario 10: logind's sleep source. A private dbus-daemon set up like the system bus, and
/// LogindStub (built next to the bench) standing in for logind; an offline engine with the sleep
/// source turned on, playing a track, writing its snapshot on every interruption. Measured: from
/// PrepareForSleep(true) to our inhibitor lock's release (state saved), as the stub sees its pipe
/// hang up, over several sleep and wake rounds; then the process's CPU while the watcher waits
/// with nothing to do (an offline engine has no driver thread, so that is the watcher's).
public enum LogindSleep {
    public struct Figures: Sendable {
        /// PrepareForSleep(true) emitted → the lock released, per round, in milliseconds.
        public var releaseMilliseconds: [Double]
        /// Process CPU while idle, in percent of one core.
        public var idleCPUPercent: Double
        public var idleSeconds: Double
    }

    /// What the stub printed, filled by a reader thread.
    private final class StubLines: Sendable {
        private let lines = Mutex<[String]>([])

        func append(_ line: String) { lines.withLock { $0.append(line) } }

        /// The first line from `index` on starting with `prefix`, waiting up to 30 s.
        func waitFor(_ prefix: String, from index: Int) throws -> (index: Int, line: String) {
            let deadline = Measure.wallSeconds() + 30
            while Measure.wallSeconds() < deadline {
                let found = lines.withLock { lines in
                    (index..<max(index, lines.count)).first { lines[$0].hasPrefix(prefix) }.map { ($0, lines[$0]) }
                }
                if let found { return found }
                Thread.sleep(forTimeInterval: 0.002)
            }
            throw InterludeError(.deviceUnavailable, "LogindSleep: the stub never said \(prefix)")
        }
    }

    /// The stand-in logind, a product of the engine's package (its tests run it too), built
    /// in the engine's build folder where the bench is built in its own: the bench's
    /// `bench/.build/<triple>/<configuration>` becomes `.build/<triple>/<configuration>`
    /// (`make bench` builds it).
    public static var stubExecutable: URL {
        let benchFolder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().path
        return URL(fileURLWithPath: benchFolder.replacingOccurrences(of: "/bench/.build/", with: "/.build/"))
            .appendingPathComponent("LogindStub")
    }

    /// Runs `rounds` sleep and wake cycles, then measures `idleSeconds` of idle.
    public static func run(rounds: Int, idleSeconds: Double, trackPath: String) throws -> Figures {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("interlude-bench-bus-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let socketPath = folder.appendingPathComponent("system_bus_socket").path
        let address = "unix:path=\(socketPath)"
        let rules = ["send_type", "receive_type"].flatMap { direction in
            ["method_call", "method_return", "signal", "error"].map { "<allow \(direction)=\"\($0)\"/>" }
        }
        try """
            <busconfig><type>system</type><listen>\(address)</listen><auth>EXTERNAL</auth>
            <policy context="default"><allow user="*"/><allow own="*"/>\(rules.joined())</policy></busconfig>
            """.write(to: folder.appendingPathComponent("system.conf"), atomically: true, encoding: .utf8)
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        daemon.arguments = ["--config-file=\(folder.appendingPathComponent("system.conf").path)", "--nofork", "--nopidfile"]
        daemon.standardOutput = FileHandle.nullDevice
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        defer {
            if daemon.isRunning { daemon.terminate() }
            daemon.waitUntilExit()
        }
        let stub = Process()
        stub.executableURL = stubExecutable
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = address
        stub.environment = environment
        let input = Pipe(), output = Pipe()
        stub.standardInput = input
        stub.standardOutput = output
        stub.standardError = FileHandle.nullDevice
        try stub.run()
        defer {
            try? input.fileHandleForWriting.close()
            stub.waitUntilExit()
        }
        let lines = StubLines()
        let reader = output.fileHandleForReading
        Thread.detachNewThread {
            var pending = Data()
            while true {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    lines.append(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                    pending = Data(pending[(newline + 1)...])
                }
            }
        }
        func send(_ command: String) { input.fileHandleForWriting.write(Data((command + "\n").utf8)) }
        _ = try lines.waitFor("ready", from: 0)

        var configuration = SoundEngine.Configuration(output: .offline(sampleRate: 48_000, channelCount: 2))
        configuration.mediaRole = nil
        configuration.statePath = folder.appendingPathComponent("state.json").path
        configuration.logind = .init(watchesSleep: true, watchesSessionSwitch: false, systemBusAddress: address)
        let engine = try SoundEngine(configuration: configuration)
        defer { engine.shutdown() }
        try engine.playMusic(path: trackPath)
        _ = try engine.render(frameCount: 4_800)
        var cursor = try lines.waitFor("inhibit-taken", from: 0).index
        var releaseMilliseconds: [Double] = []
        for _ in 0..<rounds {
            send("sleep")
            let released = try lines.waitFor("inhibit-released", from: cursor)
            if let microseconds = Double(released.line.split(separator: " ").last ?? "") {
                releaseMilliseconds.append(microseconds / 1_000)
            }
            send("wake")
            cursor = try lines.waitFor("inhibit-taken", from: released.index).index
            _ = try engine.render(frameCount: 4_800)
        }
        let startCPU = Measure.processCPUSeconds()
        let startWall = Measure.wallSeconds()
        Thread.sleep(forTimeInterval: idleSeconds)
        let wall = Measure.wallSeconds() - startWall
        let cpu = Measure.processCPUSeconds() - startCPU
        send("quit")
        return Figures(releaseMilliseconds: releaseMilliseconds, idleCPUPercent: cpu / wall * 100, idleSeconds: wall)
    }
}

extension Bench {
    /// Scenario 10's rows: reported; the idle goal is the desktop issue's (0.1% of a core).
    public func logindSleepRows() throws -> [BenchRow] {
        progress("14. logind sleep source")
        let figures = try LogindSleep.run(rounds: sizes.rounds * 4, idleSeconds: sizes.lostDeviceSeconds, trackPath: sceneTrackPath)
        let sorted = figures.releaseMilliseconds.sorted()
        return [
            BenchRow(scenario: "14. logind sleep", measure: "PrepareForSleep(true) → inhibitor lock released, state saved (median of \(sorted.count))",
                     unit: "ms", engine: sorted.isEmpty ? nil : sorted[sorted.count / 2], engineSamples: sorted),
            BenchRow(scenario: "14. logind sleep", measure: "same, worst round", unit: "ms", engine: sorted.last),
            BenchRow(scenario: "14. logind sleep", measure: String(format: "watcher idle on the bus: process CPU over %.0f s", figures.idleSeconds),
                     unit: "% of a core", engine: figures.idleCPUPercent, goal: "<= 0.1", isGoalMet: figures.idleCPUPercent <= 0.1),
        ]
    }
}
