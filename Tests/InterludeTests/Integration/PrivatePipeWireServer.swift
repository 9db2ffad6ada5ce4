#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A private PipeWire server with its PulseAudio service, for running the phone-stream test
/// against PipeWire: its own HOME and XDG_RUNTIME_DIR under a fresh temporary folder, a private
/// D-Bus session bus (WirePlumber will not run without one), `pipewire`, `wireplumber` (the
/// session manager that links streams to sinks) and `pipewire-pulse`, whose socket libpulse
/// clients, OpenAL Soft's and ours, reach. Null sinks are loaded through `pactl`, as on
/// PulseAudio. Every process is stopped by its PID.
final class PrivatePipeWireServer: @unchecked Sendable {
    private let privateFolder: PrivateServerFolder
    /// The servers' folder: their sockets, logs, and the tests' own files.
    var folder: URL { privateFolder.url }
    private var processes: [ChildProcess] = []

    /// Whether the tools are on the PATH.
    static var isInstalled: Bool {
        ["pipewire", "pipewire-pulse", "wireplumber", "dbus-daemon", "pactl", "parecord", "paplay"].allSatisfy { tool in
            (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains {
                FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)")
            }
        }
    }

    init() throws {
        privateFolder = try PrivateServerFolder(kind: "pipewire", subfolders: ["home", "xdg-runtime"])
    }

    deinit {
        stop()
    }

    private var busPath: String { folder.appendingPathComponent("bus").path }
    private var socketPath: String { folder.appendingPathComponent("xdg-runtime/pulse/native").path }

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
        environment.removeValue(forKey: "PULSE_PROP_media.role")
        environment["PULSE_SERVER"] = "unix:\(socketPath)"
        environment["PULSE_CLIENTCONFIG"] = privateFolder.clientConfigPath
        environment["ALSOFT_DRIVERS"] = "pulse"
        return environment
    }

    /// Starts the bus, PipeWire, WirePlumber and pipewire-pulse, loads two null sinks ("spk",
    /// the default, and "phone"), and waits until the session manager has made spk the default.
    func start(timeoutSeconds: Double = 10) throws {
        precondition(processes.isEmpty, "already running")
        let logs = [("bus", ["dbus-daemon", "--session", "--nofork", "--nopidfile", "--address=unix:path=\(busPath)"]),
                    ("pipewire", ["pipewire"]), ("wireplumber", ["wireplumber"]), ("pipewire-pulse", ["pipewire-pulse"])]
        for (name, arguments) in logs {
            let log = open(folder.appendingPathComponent("\(name).log").path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            defer { close(log) }
            processes.append(try ChildProcess(arguments, environment: serverEnvironment, stdout: log, stderr: log))
            let ready = name == "bus" ? busPath : name == "pipewire-pulse" ? socketPath : nil
            if let ready { try waitUntil("\(name)'s socket \(ready)", timeoutSeconds: timeoutSeconds) { PrivatePulseServer.socketAccepts(ready) } }
        }
        _ = try pactl(["load-module", "module-null-sink", "sink_name=spk"])
        _ = try pactl(["load-module", "module-null-sink", "sink_name=phone"])
        _ = try pactl(["set-default-sink", "spk"])
        try waitUntil("WirePlumber making spk the default sink", timeoutSeconds: timeoutSeconds) {
            (try? pactl(["get-default-sink"]))?.trimmingCharacters(in: .whitespacesAndNewlines) == "spk"
        }
    }

    private func waitUntil(_ what: String, timeoutSeconds: Double, _ condition: () -> Bool) throws {
        let deadline = ContinuousClock.now + .seconds(timeoutSeconds)
        while ContinuousClock.now < deadline {
            if processes.contains(where: { !$0.isRunning }) { break }
            if condition() { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        let texts = ["bus", "pipewire", "wireplumber", "pipewire-pulse"].map { name in
            "\(name): " + ((try? String(contentsOf: folder.appendingPathComponent("\(name).log"), encoding: .utf8)) ?? "").suffix(400)
        }
        throw TestFailure("PipeWire: no \(what) within \(timeoutSeconds) s. \(texts.joined(separator: " | "))")
    }

    /// SIGTERM by PID, newest first (SIGKILL after 2 s). Idempotent.
    func stop() {
        for process in processes.reversed() { process.stop(SIGTERM) }
        processes = []
    }

    /// Starts `parecord` on a sink's monitor, writing a WAV file. With a short latency:
    /// pipewire-pulse otherwise hands a recorder its data in large fragments, and what is still
    /// in one when the recorder stops is lost.
    func record(to file: URL, device: String = "spk.monitor") throws -> ChildProcess {
        try ChildProcess(["parecord", "--latency-msec=20", "-d", device, "--file-format=wav", file.path], environment: clientEnvironment)
    }

    /// Runs `pactl` against this server and returns its output.
    func pactl(_ arguments: [String]) throws -> String {
        try privateFolder.runTool(["pactl"] + arguments, environment: clientEnvironment)
    }
}
