#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Interlude

/// A private PulseAudio server for the bench's child processes: its own HOME, XDG_RUNTIME_DIR
/// and PULSE_RUNTIME_PATH in a fresh temporary folder, a unix socket there with anonymous auth,
/// and a null sink "spk" at 48 kHz whose monitor records what was played. The user's own
/// server is never touched; the server is stopped by its PID, and the folder removed, by
/// ``stop()``.
///
/// With `sinkStaysAwake` the sink is kept running on 10 ms blocks by a silent stream of the
/// server's own, set up before the clients' socket opens (as the tests' PrivatePulseServer
/// does): an idle null sink renders 2 s blocks and makes a new stream wait one out, where a
/// desktop's hardware sink rewinds and starts it at once.
///
/// The server is spawned with posix_spawn, not Foundation's `Process`: on Linux, `Process`
/// watches its children one blocking `wait4` at a time, so a client's exit would go unseen
/// while the server still runs.
final class BenchPulseServer: BenchAudioServer {
    private let folder: URL
    private let serverPID: pid_t
    /// The silent stream keeping the sink awake, when there is one.
    private let keepAwakePID: pid_t?
    private let environment: [String: String]

    /// Starts the server and waits until its socket exists. `label` names the folder.
    init(label: String, sinkStaysAwake: Bool = false) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("interlude-bench-\(label)-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var environment = ProcessInfo.processInfo.environment
        for (variable, name) in [("HOME", "home"), ("XDG_RUNTIME_DIR", "xdg-runtime"), ("PULSE_RUNTIME_PATH", "pulse-runtime")] {
            let path = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            environment[variable] = path.path
        }
        let socketPath = folder.appendingPathComponent("native").path
        let setupSocketPath = folder.appendingPathComponent("setup").path
        environment.removeValue(forKey: "PULSE_SERVER")
        let clientConfig = folder.appendingPathComponent("client.conf")
        try "autospawn = no\n".write(to: clientConfig, atomically: true, encoding: .utf8)
        environment["PULSE_CLIENTCONFIG"] = clientConfig.path
        let firstSocket = sinkStaysAwake ? setupSocketPath : socketPath
        let arguments = ["/usr/bin/pulseaudio", "--daemonize=no", "--system=false", "-n", "--exit-idle-time=-1",
                         "--use-pid-file=no", "--load=module-native-protocol-unix auth-anonymous=1 socket=\(firstSocket)",
                         "--load=module-null-sink sink_name=spk rate=48000"]
        let serverPID = try Self.spawnQuietly(arguments, environment: environment)
        self.serverPID = serverPID
        let deadline = Measure.wallSeconds() + 5
        var keepAwakePID: pid_t?
        let fail = { [folder] (problem: String) -> InterludeError in
            if let keepAwakePID { Self.stop(keepAwakePID, signal: SIGKILL) }
            Self.stop(serverPID)
            try? FileManager.default.removeItem(at: folder)
            return InterludeError(.deviceUnavailable, "BenchPulseServer: \(problem) (`make deps` installs pulseaudio)")
        }
        guard Self.waitForSocket(firstSocket, server: serverPID, deadline: deadline) else { throw fail("pulseaudio did not start") }
        if sinkStaysAwake {
            do {
                try Self.wakeSink(setupSocket: setupSocketPath, clientsSocket: socketPath, environment: environment,
                                  deadline: deadline, keepAwakePID: &keepAwakePID)
            } catch {
                throw fail("setting up the sink: \(error)")
            }
            guard Self.waitForSocket(socketPath, server: serverPID, deadline: deadline) else { throw fail("the clients' socket did not open") }
        }
        self.keepAwakePID = keepAwakePID
        environment["PULSE_SERVER"] = "unix:\(socketPath)"
        environment["ALSOFT_DRIVERS"] = "pulse"
        self.environment = environment
    }

    /// ``SinkWake``'s steps through the set-up socket (the keep-awake stream's PID in
    /// `keepAwakePID` as soon as it runs).
    private static func wakeSink(setupSocket: String, clientsSocket: String, environment: [String: String], deadline: Double,
                                 keepAwakePID: inout pid_t?) throws {
        var setup = environment
        setup["PULSE_SERVER"] = "unix:\(setupSocket)"
        keepAwakePID = try spawnQuietly(SinkWake.keepAwakeCommand, environment: setup)
        let pactl = { (arguments: [String]) in
            try BenchChild.output(of: URL(fileURLWithPath: "/usr/bin/pactl"), arguments: arguments, environment: setup, name: "pactl")
        }
        while try pactl(SinkWake.streamsQuery).isEmpty {
            guard Measure.wallSeconds() < deadline else { throw BenchError("the keep-awake stream did not reach the sink") }
            Thread.sleep(forTimeInterval: 0.005)
        }
        for step in SinkWake.restart(clientsSocket: clientsSocket) { _ = try pactl(step) }
    }

    /// Waits until `path` exists, while `server` runs and until `deadline`.
    private static func waitForSocket(_ path: String, server: pid_t, deadline: Double) -> Bool {
        while !FileManager.default.fileExists(atPath: path) {
            guard Measure.wallSeconds() < deadline, waitpid(server, nil, WNOHANG) == 0 else { return false }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return true
    }

    /// The server's PID.
    var pid: Int32 { serverPID }

    /// Runs `executable` with `arguments` as a client of this server (plus `extraEnvironment`)
    /// and returns what it printed; throws, naming `scenario`, when it fails.
    func runClient(_ executable: URL, arguments: [String], extraEnvironment: [String: String] = [:],
                   scenario: String) throws -> String {
        try BenchChild.output(of: executable, arguments: arguments, extra: extraEnvironment, environment: environment,
                              name: "\(scenario): the child")
    }

    /// Stops the server, if it still runs, and removes the folder.
    func stop() {
        // SIGKILL: on SIGTERM pacat drains its endless stream first.
        if let keepAwakePID { Self.stop(keepAwakePID, signal: SIGKILL) }
        Self.stop(serverPID)
        try? FileManager.default.removeItem(at: folder)
    }

    /// `signal` (SIGTERM unless told) to `pid`, and reaps it (a child that already exited is
    /// reaped as well).
    static func stop(_ pid: pid_t, signal: Int32 = SIGTERM) {
        kill(pid, signal)
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
    }

    /// posix_spawn of `arguments` with `environment`, its stdout and stderr to /dev/null.
    static func spawnQuietly(_ arguments: [String], environment: [String: String]) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawnp(&pid, arguments[0], &actions, nil, argv, envp)
        guard status == 0 else {
            throw InterludeError(.deviceUnavailable, "BenchPulseServer: cannot start \(arguments[0]): \(String(cString: strerror(status)))")
        }
        return pid
    }
}
