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
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("interlude-bench-pulse-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var environment = ProcessInfo.processInfo.environment
        // Private folders, so the user's own server is never touched.
        for (variable, name) in [("HOME", "home"), ("XDG_RUNTIME_DIR", "xdg-runtime"), ("PULSE_RUNTIME_PATH", "pulse-runtime")] {
            let path = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            environment[variable] = path.path
        }
        let socketPath = folder.appendingPathComponent("native").path
        environment.removeValue(forKey: "PULSE_SERVER")
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/pulseaudio")
        server.arguments = ["--daemonize=no", "--system=false", "-n", "--exit-idle-time=-1", "--use-pid-file=no",
                            "--load=module-native-protocol-unix auth-anonymous=1 socket=\(socketPath)",
                            "--load=module-null-sink sink_name=spk"]
        server.environment = environment
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer {
            if server.isRunning { server.terminate() }
            server.waitUntilExit()
        }
        let serverDeadline = Measure.wallSeconds() + 5
        while !FileManager.default.fileExists(atPath: socketPath) {
            guard Measure.wallSeconds() < serverDeadline, server.isRunning else {
                throw InterludeError(.deviceUnavailable, "LostDevice: pulseaudio did not start (`make deps` installs it)")
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
        let clientConfig = folder.appendingPathComponent("client.conf")
        try "autospawn = no\n".write(to: clientConfig, atomically: true, encoding: .utf8)
        environment["PULSE_SERVER"] = "unix:\(socketPath)"
        environment["PULSE_CLIENTCONFIG"] = clientConfig.path
        environment["ALSOFT_DRIVERS"] = "pulse"
        let child = Process()
        child.executableURL = executable
        child.arguments = arguments + ["\(server.processIdentifier)"]
        child.environment = environment
        let pipe = Pipe()
        child.standardOutput = pipe
        try child.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        guard child.terminationStatus == 0,
              let figures = text.split(separator: "\n").last.flatMap({ Figures(line: String($0)) }) else {
            throw InterludeError(.deviceUnavailable, "LostDevice: the child failed (status \(child.terminationStatus)): \(text)")
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
