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
/// The server is spawned with posix_spawn, not Foundation's `Process`: on Linux, `Process`
/// watches its children one blocking `wait4` at a time, so a client's exit would go unseen
/// while the server still runs.
final class BenchPulseServer: BenchAudioServer {
    private let folder: URL
    private let serverPID: pid_t
    private let environment: [String: String]

    /// Starts the server and waits until its socket exists. `label` names the folder.
    init(label: String) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("interlude-bench-\(label)-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var environment = ProcessInfo.processInfo.environment
        for (variable, name) in [("HOME", "home"), ("XDG_RUNTIME_DIR", "xdg-runtime"), ("PULSE_RUNTIME_PATH", "pulse-runtime")] {
            let path = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            environment[variable] = path.path
        }
        let socketPath = folder.appendingPathComponent("native").path
        environment.removeValue(forKey: "PULSE_SERVER")
        let arguments = ["/usr/bin/pulseaudio", "--daemonize=no", "--system=false", "-n", "--exit-idle-time=-1",
                         "--use-pid-file=no", "--load=module-native-protocol-unix auth-anonymous=1 socket=\(socketPath)",
                         "--load=module-null-sink sink_name=spk rate=48000"]
        serverPID = try Self.spawnQuietly(arguments, environment: environment)
        let deadline = Measure.wallSeconds() + 5
        while !FileManager.default.fileExists(atPath: socketPath) {
            guard Measure.wallSeconds() < deadline, waitpid(serverPID, nil, WNOHANG) == 0 else {
                Self.stop(serverPID)
                try? FileManager.default.removeItem(at: folder)
                throw InterludeError(.deviceUnavailable, "BenchPulseServer: pulseaudio did not start (`make deps` installs it)")
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
        let clientConfig = folder.appendingPathComponent("client.conf")
        try "autospawn = no\n".write(to: clientConfig, atomically: true, encoding: .utf8)
        environment["PULSE_SERVER"] = "unix:\(socketPath)"
        environment["PULSE_CLIENTCONFIG"] = clientConfig.path
        environment["ALSOFT_DRIVERS"] = "pulse"
        self.environment = environment
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
        Self.stop(serverPID)
        try? FileManager.default.removeItem(at: folder)
    }

    /// SIGTERM to `pid` and reaps it (a child that already exited is reaped as well).
    static func stop(_ pid: pid_t) {
        kill(pid, SIGTERM)
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
