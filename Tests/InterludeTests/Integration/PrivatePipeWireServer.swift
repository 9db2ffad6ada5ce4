#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A private PipeWire server with its PulseAudio service, for running the phone-stream test
/// against PipeWire: its own HOME and XDG_RUNTIME_DIR under a fresh temporary folder, a private
/// D-Bus session bus (WirePlumber will not run without one), `pipewire`, `wireplumber` (the
/// session manager that links streams to sinks) and `pipewire-pulse`, whose socket libpulse
/// clients, OpenAL Soft's and ours, reach. Null sinks are loaded through `pactl`, as on
/// PulseAudio, or, for a server that is killed and restarted (``killDaemons()``,
/// ``restartDaemons(timeoutSeconds:)``), made by PipeWire itself from a configuration file in
/// its private HOME, so that they are there again as soon as the restarted daemon is. Every
/// process is stopped by its PID.
final class PrivatePipeWireServer: @unchecked Sendable {
    private let privateFolder: PrivateServerFolder
    /// The servers' folder: their sockets, logs, and the tests' own files.
    var folder: URL { privateFolder.url }
    /// The session bus, then PipeWire, WirePlumber and pipewire-pulse (the daemons).
    private var processes: [ChildProcess] = []
    /// The null sinks PipeWire makes from its configuration at each start, nil: "spk" and
    /// "phone" are loaded through pactl after the start.
    private let configuredSinks: [String]?

    /// The PipeWire daemons, in the order they are started.
    private static let daemons = ["pipewire", "wireplumber", "pipewire-pulse"]

    /// Whether the tools are on the PATH.
    static var isInstalled: Bool {
        ["pipewire", "pipewire-pulse", "wireplumber", "dbus-daemon", "pactl", "parecord", "paplay"].allSatisfy { tool in
            (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains {
                FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)")
            }
        }
    }

    /// A server whose null sinks are loaded through pactl after it starts, or, with
    /// `configuredSinks`, made by PipeWire from its configuration at every start (the first is
    /// the default).
    init(configuredSinks: [String]? = nil) throws {
        privateFolder = try PrivateServerFolder(kind: "pipewire", subfolders: ["home", "xdg-runtime"])
        self.configuredSinks = configuredSinks
        guard let configuredSinks else { return }
        let objects = configuredSinks.map { name in
            """
                { factory = adapter
                  args = { factory.name = support.null-audio-sink node.name = "\(name)" node.description = "\(name)"
                           media.class = "Audio/Sink" audio.position = [ FL FR ] monitor.channel-volumes = true } }
            """
        }
        let dropIns = folder.appendingPathComponent("home/.config/pipewire/pipewire.conf.d")
        try FileManager.default.createDirectory(at: dropIns, withIntermediateDirectories: true)
        try "context.objects = [\n\(objects.joined(separator: "\n"))\n]\n".write(to: dropIns.appendingPathComponent("sinks.conf"),
                                                                                   atomically: true, encoding: .utf8)
    }

    deinit {
        stop()
    }

    private var busPath: String { folder.appendingPathComponent("bus").path }
    private var socketPath: String { folder.appendingPathComponent("xdg-runtime/pulse/native").path }
    private var pipeWireSocketPath: String { folder.appendingPathComponent("xdg-runtime/pipewire-0").path }

    /// The servers' environment: private folders and the private session bus.
    private var serverEnvironment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for key in ["PULSE_SERVER", "DISPLAY", "WAYLAND_DISPLAY", "PIPEWIRE_REMOTE"] { environment.removeValue(forKey: key) }
        environment["HOME"] = folder.appendingPathComponent("home").path
        environment["XDG_RUNTIME_DIR"] = folder.appendingPathComponent("xdg-runtime").path
        environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=\(busPath)"
        return environment
    }

    /// What a libpulse client needs to reach this server's PulseAudio service and nothing else.
    var clientEnvironment: [String: String] {
        var environment = serverEnvironment
        // What an engine in this test process sets for its own OpenAL, not the client's: the
        // role, and the alsoft.conf it generates while its first device opens (on 1.20 and
        // later that file may say allow-moves = false, and a child started then would play an
        // unmovable stream).
        for key in ["PULSE_PROP_media.role", "ALSOFT_CONF"] { environment.removeValue(forKey: key) }
        environment["PULSE_SERVER"] = "unix:\(socketPath)"
        environment["PULSE_CLIENTCONFIG"] = privateFolder.clientConfigPath
        environment["ALSOFT_DRIVERS"] = "pulse"
        return environment
    }

    /// ``clientEnvironment`` with OpenAL Soft on its native PipeWire backend (1.22 and later):
    /// ALSOFT_DRIVERS=pipewire, and PipeWire's runtime folder this server's. The engine's own
    /// libpulse connection still reaches pipewire-pulse.
    var nativeClientEnvironment: [String: String] {
        var environment = clientEnvironment
        environment["ALSOFT_DRIVERS"] = "pipewire"
        environment["PIPEWIRE_RUNTIME_DIR"] = folder.appendingPathComponent("xdg-runtime").path
        return environment
    }

    /// Starts the bus, PipeWire, WirePlumber and pipewire-pulse, loads two null sinks ("spk",
    /// the default, and "phone"), and waits until the session manager has made spk the default.
    /// With configured sinks, only waits for WirePlumber to make the first one the default.
    func start(timeoutSeconds: Double = 10) throws {
        precondition(processes.isEmpty, "already running")
        try launch("bus", ["dbus-daemon", "--session", "--nofork", "--nopidfile", "--address=unix:path=\(busPath)"])
        try waitUntil("bus's socket \(busPath)", timeoutSeconds: timeoutSeconds) { PrivatePulseServer.socketAccepts(busPath) }
        try startDaemons(timeoutSeconds: timeoutSeconds)
    }

    /// Starts PipeWire, WirePlumber and pipewire-pulse, and waits until the default sink is there.
    private func startDaemons(timeoutSeconds: Double) throws {
        // PipeWire first, and its clients once its socket answers, the order systemd's socket
        // activation gives. Started together, 2 starts in 40 timed out (on pipewire-pulse's
        // socket, and on WirePlumber's default sink, every daemon still running).
        try launch("pipewire", ["pipewire"])
        try waitUntil("PipeWire's socket \(pipeWireSocketPath)", timeoutSeconds: timeoutSeconds) {
            PrivatePulseServer.socketAccepts(pipeWireSocketPath)
        }
        for name in Self.daemons.dropFirst() { try launch(name, [name]) }
        try waitUntil("pipewire-pulse's socket \(socketPath)", timeoutSeconds: timeoutSeconds) { PrivatePulseServer.socketAccepts(socketPath) }
        let defaultSink = configuredSinks?.first ?? "spk"
        if configuredSinks == nil {
            _ = try pactl(["load-module", "module-null-sink", "sink_name=spk"])
            _ = try pactl(["load-module", "module-null-sink", "sink_name=phone"])
            _ = try pactl(["set-default-sink", "spk"])
        }
        try waitUntil("WirePlumber making \(defaultSink) the default sink", timeoutSeconds: timeoutSeconds) {
            (try? pactl(["get-default-sink"]))?.trimmingCharacters(in: .whitespacesAndNewlines) == defaultSink
        }
    }

    /// Starts `arguments` with its output appended to `<name>.log` (a restarted daemon's log
    /// follows the first run's).
    private func launch(_ name: String, _ arguments: [String]) throws {
        let log = open(folder.appendingPathComponent("\(name).log").path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        defer { close(log) }
        processes.append(try ChildProcess(arguments, environment: serverEnvironment, stdout: log, stderr: log))
    }

    /// The process ids of PipeWire, WirePlumber and pipewire-pulse while they run (the session
    /// bus is not the audio server's).
    var daemonPIDs: [pid_t] { processes.dropFirst().filter(\.isRunning).map(\.pid) }

    /// SIGKILL to PipeWire, WirePlumber and pipewire-pulse, by PID, at once (the session bus
    /// stays): the audio server dies under its clients, as in a crash.
    func killDaemons() {
        let daemons = processes.dropFirst()
        for daemon in daemons { daemon.send(SIGKILL) }
        for daemon in daemons { daemon.waitForExit(timeoutSeconds: 5) }
        processes = Array(processes.prefix(1))
    }

    /// Starts the three daemons again after ``killDaemons()`` and waits until the default sink
    /// is there (made by PipeWire from the configuration, or loaded again through pactl).
    func restartDaemons(timeoutSeconds: Double = 10) throws {
        precondition(processes.count == 1, "the daemons are still running")
        try startDaemons(timeoutSeconds: timeoutSeconds)
    }

    private func waitUntil(_ what: String, timeoutSeconds: Double, _ condition: () -> Bool) throws {
        let deadline = ContinuousClock.now + .seconds(timeoutSeconds)
        while ContinuousClock.now < deadline {
            if processes.contains(where: { !$0.isRunning }) { break }
            if condition() { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        let names = ["bus"] + Self.daemons
        let exited = processes.enumerated().filter { !$0.element.isRunning }.map { index, process in
            "\(index < names.count ? names[index] : "?") (pid \(process.pid), wait status \(process.status.map(String.init) ?? "?"))"
        }
        let texts = names.map { name in
            "\(name): " + ((try? String(contentsOf: folder.appendingPathComponent("\(name).log"), encoding: .utf8)) ?? "").suffix(400)
        }
        let sinks = PrivatePulseServer.socketAccepts(socketPath)
            ? "default sink \((try? pactl(["get-default-sink"])) ?? "?"), sinks \((try? pactl(["list", "short", "sinks"])) ?? "?")"
            : "pipewire-pulse does not answer"
        throw TestFailure("PipeWire: no \(what) within \(timeoutSeconds) s (\(sinks)); exited: \(exited.isEmpty ? "none" : exited.joined(separator: ", ")). \(texts.joined(separator: " | "))")
    }

    /// SIGTERM by PID, newest first (SIGKILL after 2 s). Idempotent.
    func stop() {
        for process in processes.reversed() { process.stop(SIGTERM) }
        processes = []
    }

    /// Starts `parecord` on a sink's monitor, writing a WAV file. With a short latency:
    /// pipewire-pulse otherwise hands a recorder its data in large fragments, and what is still
    /// in one when the recorder stops is lost. `node.dont-reconnect`: WirePlumber would otherwise
    /// move the recorder to the new default sink's monitor when the default sink changes.
    func record(to file: URL, device: String = "spk.monitor") throws -> ChildProcess {
        try ChildProcess(["parecord", "--latency-msec=20", "--property=node.dont-reconnect=true", "-d", device, "--file-format=wav", file.path],
                         environment: clientEnvironment)
    }

    /// Runs `pactl` against this server and returns its output.
    func pactl(_ arguments: [String]) throws -> String {
        try privateFolder.runTool(["pactl"] + arguments, environment: clientEnvironment)
    }
}
