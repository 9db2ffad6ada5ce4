#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Interlude

/// Scenario 9: what an engine costs while its device stays lost. The engine plays to a private
/// PulseAudio server, which is then killed, so every reopen try fails (PULSE_SERVER names a
/// socket nobody listens on any more). It runs in a child process, since OpenAL Soft picks its
/// backend once per process: the parent starts the server and the child, the child opens the
/// engine, kills the server and measures its own CPU time while the engine keeps retrying.
public enum LostDevice {
    /// What the child measured.
    public struct Figures: Sendable {
        /// The child's CPU time over the wall time measured, in percent of one core.
        public var cpuPercent: Double
        /// The wall time measured, from the loss on, in seconds.
        public var measuredSeconds: Double
        /// Reopen tries the engine made in that time.
        public var reopenAttemptCount: Int

        /// The figures as the child prints them: three numbers on one line.
        public var line: String { "\(cpuPercent) \(measuredSeconds) \(reopenAttemptCount)" }

        /// Parses ``line``.
        public init?(line: String) {
            let numbers = line.split(separator: " ")
            guard numbers.count == 3, let cpu = Double(numbers[0]), let seconds = Double(numbers[1]),
                  let attempts = Int(numbers[2]) else { return nil }
            self.init(cpuPercent: cpu, measuredSeconds: seconds, reopenAttemptCount: attempts)
        }

        init(cpuPercent: Double, measuredSeconds: Double, reopenAttemptCount: Int) {
            self.cpuPercent = cpuPercent
            self.measuredSeconds = measuredSeconds
            self.reopenAttemptCount = reopenAttemptCount
        }
    }

    /// The child: opens an engine on the system default device (the parent's server), kills
    /// the server by `serverPID`, waits for the engine to see the loss, then measures for
    /// `seconds`. Needs the environment ``run(executable:arguments:)`` gives it.
    public static func measureInChild(serverPID: Int32, seconds: Double) throws -> Figures {
        let engine = try SoundEngine(configuration: .init(output: .systemDefault))
        defer { engine.shutdown() }
        kill(serverPID, SIGKILL)
        let lossDeadline = Measure.wallSeconds() + 5
        while engine.statistics.deviceName != nil {
            guard Measure.wallSeconds() < lossDeadline else {
                throw InterludeError(.deviceUnavailable, "LostDevice: the engine did not see the server go within 5 s")
            }
            Thread.sleep(forTimeInterval: 0.005)
        }
        let startCPU = Measure.processCPUSeconds()
        let startWall = Measure.wallSeconds()
        Thread.sleep(forTimeInterval: seconds)
        let wall = Measure.wallSeconds() - startWall
        let cpu = Measure.processCPUSeconds() - startCPU
        return Figures(cpuPercent: cpu / wall * 100, measuredSeconds: wall,
                       reopenAttemptCount: engine.statistics.deviceReopenAttemptCount)
    }

    /// The parent: starts a private PulseAudio server in a fresh temporary folder, runs
    /// `executable` with `arguments + [server PID]` against it (the child prints a ``Figures``
    /// line last), then stops the server, if the child left it, and removes the folder.
    public static func run(executable: URL, arguments: [String]) throws -> Figures {
        let server = try BenchPulseServer(label: "pulse")
        defer { server.stop() }
        let text = try server.runClient(executable, arguments: arguments + ["\(server.pid)"], scenario: "LostDevice")
        guard let figures = text.split(separator: "\n").last.flatMap({ Figures(line: String($0)) }) else {
            throw InterludeError(.deviceUnavailable, "LostDevice: the child printed no figures: \(text)")
        }
        return figures
    }
}

extension Bench {
    /// The rows of scenario 9 from the child's figures: reported, not asserted.
    public func lostDeviceRows(_ figures: LostDevice.Figures) -> [BenchRow] {
        [
            BenchRow(scenario: "9. Device lost", measure: String(format: "server gone, engine retrying (100 ms doubling to 2 s): process CPU over %.0f s from the loss", figures.measuredSeconds),
                     unit: "% of a core", engine: figures.cpuPercent),
            BenchRow(scenario: "9. Device lost", measure: "reopen tries in the same time", unit: "",
                     engine: Double(figures.reopenAttemptCount)),
        ]
    }
}
