#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A private PulseAudio server for the device-loss tests: its own HOME,
/// XDG_RUNTIME_DIR and PULSE_RUNTIME_PATH under a fresh temporary folder, a unix socket there
/// with anonymous auth, and a null sink "spk" whose monitor records what was played. It never
/// touches the user's own server, and is stopped by its PID only.
///
/// An idle null sink renders 2 s blocks and, as it lowers its latency for a new stream, shrinks
/// how far it may rewind: that stream waits out the block (measured: 1.6 s behind, 0.1 s after
/// it connected). A hardware sink rewinds and starts it at once. Made with
/// `sinkStaysAwake`, the server gives "spk" a silent 10 ms stream of its own and starts it over
/// with that stream (suspend, resume) before its socket opens to the tests, so that a new
/// stream is heard within a few milliseconds, as on a desktop's sink.
final class PrivatePulseServer: @unchecked Sendable {
    private let privateFolder: PrivateServerFolder
    /// The server's folder: its socket, logs, and the tests' own files.
    var folder: URL { privateFolder.url }
    var socketPath: String { privateFolder.path("native") }
    /// The socket only the server's own set-up uses, when the sink is kept awake.
    private var setupSocketPath: String { privateFolder.path("setup") }
    /// Arguments every null sink of the test is loaded with, beside its name (`norewinds=1`).
    let sinkArguments: [String]
    /// Whether "spk" is kept running on small blocks by a silent stream of the server's own.
    let sinkStaysAwake: Bool
    private var process: ChildProcess?
    /// The silent stream that keeps "spk" awake, while the server runs.
    private var keepAwake: ChildProcess?
    private var startCount = 0

    /// Whether `pulseaudio` and `parecord` are on the PATH.
    static var isInstalled: Bool {
        ["pulseaudio", "parecord", "pactl"].allSatisfy { tool in
            (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains {
                FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)")
            }
        }
    }

    /// `sinkArguments`: what "spk" (and the test's other null sinks) are loaded with, beside
    /// their names. `sinkStaysAwake`: see the type's comment.
    init(sinkArguments: [String] = [], sinkStaysAwake: Bool = false) throws {
        privateFolder = try PrivateServerFolder(kind: "pulse", subfolders: ["home", "xdg-runtime", "pulse-runtime"])
        self.sinkArguments = sinkArguments
        self.sinkStaysAwake = sinkStaysAwake
    }

    deinit {
        stop()
    }

    /// The private folders: the server's and every client's.
    var privateEnvironment: [String: String] {
        [
            "HOME": folder.appendingPathComponent("home").path,
            "XDG_RUNTIME_DIR": folder.appendingPathComponent("xdg-runtime").path,
            "PULSE_RUNTIME_PATH": folder.appendingPathComponent("pulse-runtime").path,
        ]
    }

    /// What a client needs to reach this server and nothing else.
    var clientEnvironment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        // What an engine in this test process sets for its own OpenAL, not the client's: the
        // role, and the alsoft.conf it generates while its first device opens (on 1.20 and
        // later that file may say allow-moves = false, and a child started then would play an
        // unmovable stream).
        for key in ["PULSE_PROP_media.role", "ALSOFT_CONF"] { environment.removeValue(forKey: key) }
        for (key, value) in privateEnvironment { environment[key] = value }
        environment["PULSE_SERVER"] = "unix:\(socketPath)"
        environment["PULSE_CLIENTCONFIG"] = privateFolder.clientConfigPath
        environment["ALSOFT_DRIVERS"] = "pulse"
        return environment
    }

    /// The server's PID while it runs.
    var pid: pid_t? { process?.isRunning == true ? process?.pid : nil }

    /// Starts the server (again, on the same socket) and waits until its socket accepts.
    func start(timeoutSeconds: Double = 5) throws {
        precondition(process == nil, "the server is already running")
        startCount += 1
        var environment = ProcessInfo.processInfo.environment
        for (key, value) in privateEnvironment { environment[key] = value }
        environment.removeValue(forKey: "PULSE_SERVER")
        let log = folder.appendingPathComponent("server-\(startCount).log")
        let descriptor = open(log.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        defer { close(descriptor) }
        let firstSocket = sinkStaysAwake ? setupSocketPath : socketPath
        let server = try ChildProcess([
            "pulseaudio", "--daemonize=no", "--system=false", "-n", "--exit-idle-time=-1", "--use-pid-file=no",
            "--disallow-exit=yes",
            "--load=module-native-protocol-unix auth-anonymous=1 socket=\(firstSocket)",
            "--load=" + (["module-null-sink", "sink_name=spk"] + sinkArguments).joined(separator: " "),
        ], environment: environment, stdout: descriptor, stderr: descriptor)
        process = server
        let deadline = ContinuousClock.now + .seconds(timeoutSeconds)
        try waitUntilAccepting(firstSocket, server: server, log: log, deadline: deadline)
        if sinkStaysAwake {
            try wakeSink(deadline: deadline)
            try waitUntilAccepting(socketPath, server: server, log: log, deadline: deadline)
        }
    }

    /// Waits until `path` accepts, or throws when the server exits or `deadline` passes.
    private func waitUntilAccepting(_ path: String, server: ChildProcess, log: URL, deadline: ContinuousClock.Instant) throws {
        while ContinuousClock.now < deadline {
            if !server.isRunning {
                process = nil
                let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                throw TestFailure("pulseaudio exited (status \(server.status ?? -1)): \(text)")
            }
            if Self.socketAccepts(path) { return }
            Thread.sleep(forTimeInterval: 0.01)
        }
        throw TestFailure("pulseaudio's socket \(path) did not accept before the deadline")
    }

    /// ``SinkWake``'s steps through the set-up socket: "spk" runs on 10 ms blocks, then the
    /// tests' socket opens.
    private func wakeSink(deadline: ContinuousClock.Instant) throws {
        var environment = clientEnvironment
        environment["PULSE_SERVER"] = "unix:\(setupSocketPath)"
        keepAwake = try ChildProcess(SinkWake.keepAwakeCommand, environment: environment)
        let setupTool = { (arguments: [String]) in try self.privateFolder.runTool(["pactl"] + arguments, environment: environment) }
        while try setupTool(SinkWake.streamsQuery).isEmpty {
            guard ContinuousClock.now < deadline, keepAwake?.isRunning == true else {
                throw TestFailure("the keep-awake stream did not reach the private server's sink")
            }
            Thread.sleep(forTimeInterval: 0.005)
        }
        var answer = ""
        for step in SinkWake.restart(clientsSocket: socketPath) { answer = try setupTool(step) }
        // The last step loads the clients' socket: pactl answers with the module's index.
        guard Int(answer.trimmingCharacters(in: .whitespacesAndNewlines)) != nil else {
            throw TestFailure("load-module module-native-protocol-unix: \(answer)")
        }
    }

    /// SIGKILL by PID: the server vanishes as if it crashed. Waits until it has exited.
    func kill() {
        process?.stop(SIGKILL)
        process = nil
        keepAwake?.stop(SIGKILL)
        keepAwake = nil
    }

    /// SIGTERM by PID (SIGKILL after 2 s). Idempotent.
    func stop() {
        thaw()
        process?.stop(SIGTERM)
        process = nil
        keepAwake?.stop(SIGKILL)
        keepAwake = nil
    }

    /// SIGSTOP by PID: the server freezes with its socket open, as a server that hangs does.
    /// A client's connect then waits for an answer that does not come (`alcOpenDevice` blocks).
    func freeze() {
        if let pid { Glibc.kill(pid, SIGSTOP) }
    }

    /// SIGCONT by PID: a frozen server answers again.
    func thaw() {
        if let pid { Glibc.kill(pid, SIGCONT) }
    }

    /// Starts `parecord` on the sink's monitor, writing a WAV file.
    func record(to file: URL, device: String = "spk.monitor") throws -> ChildProcess {
        try ChildProcess(["parecord", "-d", device, "--file-format=wav", file.path], environment: clientEnvironment)
    }

    /// Stops a recorder with SIGINT (it finishes the WAV header), SIGKILL after 2 s.
    static func stopRecorder(_ recorder: ChildProcess) {
        recorder.stop(SIGINT)
    }

    /// Runs `pactl` against this server and returns its output.
    func pactl(_ arguments: [String]) throws -> String {
        try privateFolder.runTool(["pactl"] + arguments, environment: clientEnvironment)
    }

    /// True when a unix socket at `path` accepts a connection.
    static func socketAccepts(_ path: String) -> Bool {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
            }
        }
    }
}

