#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Interlude

/// A private audio server the bench's children play to: a null sink "spk" at 48 kHz, the
/// default, whose monitor records what was played.
protocol BenchAudioServer: AnyObject {
    /// Runs `executable` as a client of this server and returns what it printed.
    func runClient(_ executable: URL, arguments: [String], extraEnvironment: [String: String], scenario: String) throws -> String
    /// Stops the server and removes its folder.
    func stop()
}

/// The audio stacks scenario 10 runs on, with whichever OpenAL Soft the bench loaded.
public enum BenchServerKind: String, Sendable, CaseIterable {
    /// A private PulseAudio; OpenAL Soft's pulse backend.
    case pulse
    /// A private PipeWire with pipewire-pulse; OpenAL Soft's pulse backend (all 1.19 has).
    case pipewirePulse = "pipewire-pulse"
    /// A private PipeWire; OpenAL Soft's native PipeWire backend (1.22 and later).
    case pipewire

    /// The OpenAL Soft backend the children are given (ALSOFT_DRIVERS).
    public var backend: String { self == .pipewire ? "pipewire" : "pulse" }

    /// Starts a fresh server of this kind (a PulseAudio sink kept awake, as a desktop's is);
    /// `label` names its folder.
    func start(label: String) throws -> BenchAudioServer {
        switch self {
        case .pulse: try BenchPulseServer(label: label, sinkStaysAwake: true)
        case .pipewirePulse, .pipewire: try BenchPipeWireServer(label: label, nativeBackend: self == .pipewire)
        }
    }
}

/// A private PipeWire server for the bench's children (as the tests' PrivatePipeWireServer):
/// its own HOME and XDG_RUNTIME_DIR in a fresh temporary folder, a private D-Bus session bus
/// (WirePlumber needs one), then `pipewire`, `wireplumber` and `pipewire-pulse`, each started
/// once the one before answers, and a null sink "spk" at 48 kHz made the default. Its clients
/// use OpenAL Soft's native PipeWire backend or its pulse backend over pipewire-pulse. Every
/// process is stopped by its PID.
final class BenchPipeWireServer: BenchAudioServer {
    private let folder: URL
    /// The bus, then PipeWire, WirePlumber and pipewire-pulse.
    private var pids: [pid_t] = []
    private let environment: [String: String]

    init(label: String, nativeBackend: Bool) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("interlude-bench-pw-\(label)-\(getpid())")
        try? FileManager.default.removeItem(at: folder)
        var environment = ProcessInfo.processInfo.environment
        for key in ["PULSE_SERVER", "DISPLAY", "WAYLAND_DISPLAY", "PIPEWIRE_REMOTE", "PULSE_PROP_media.role"] {
            environment.removeValue(forKey: key)
        }
        for (variable, name) in [("HOME", "home"), ("XDG_RUNTIME_DIR", "xdg-runtime")] {
            let path = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            environment[variable] = path.path
        }
        let busPath = folder.appendingPathComponent("bus").path
        environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=\(busPath)"
        let runtime = folder.appendingPathComponent("xdg-runtime").path
        let pulseSocket = "\(runtime)/pulse/native"
        let clientConfig = folder.appendingPathComponent("client.conf")
        try "autospawn = no\n".write(to: clientConfig, atomically: true, encoding: .utf8)
        var client = environment
        client["PULSE_SERVER"] = "unix:\(pulseSocket)"
        client["PULSE_CLIENTCONFIG"] = clientConfig.path
        client["PIPEWIRE_RUNTIME_DIR"] = runtime
        client["ALSOFT_DRIVERS"] = nativeBackend ? "pipewire" : "pulse"
        self.environment = client
        do {
            pids.append(try BenchPulseServer.spawnQuietly(["dbus-daemon", "--session", "--nofork", "--nopidfile", "--address=unix:path=\(busPath)"],
                                                          environment: environment))
            try waitUntil("the bus") { FileManager.default.fileExists(atPath: busPath) }
            // PipeWire first, its clients once its socket is there, as socket activation orders them.
            pids.append(try BenchPulseServer.spawnQuietly(["pipewire"], environment: environment))
            try waitUntil("PipeWire's socket") { FileManager.default.fileExists(atPath: "\(runtime)/pipewire-0") }
            for daemon in ["wireplumber", "pipewire-pulse"] {
                pids.append(try BenchPulseServer.spawnQuietly([daemon], environment: environment))
            }
            try waitUntil("pipewire-pulse's socket") { FileManager.default.fileExists(atPath: pulseSocket) }
            // pipewire-pulse answers a moment after its socket appears.
            try waitUntil("pipewire-pulse loading the null sink") {
                (try? self.pactl(["load-module", "module-null-sink", "sink_name=spk", "rate=48000"])) != nil
            }
            _ = try pactl(["set-default-sink", "spk"])
            try waitUntil("WirePlumber making spk the default sink") {
                (try? self.pactl(["get-default-sink"]))?.trimmingCharacters(in: .whitespacesAndNewlines) == "spk"
            }
        } catch {
            stop()
            throw error
        }
    }

    func runClient(_ executable: URL, arguments: [String], extraEnvironment: [String: String], scenario: String) throws -> String {
        try BenchChild.output(of: executable, arguments: arguments, extra: extraEnvironment, environment: environment,
                              name: "\(scenario): the child")
    }

    /// SIGTERM to each process by PID, newest first, then removes the folder. Idempotent.
    func stop() {
        for pid in pids.reversed() { BenchPulseServer.stop(pid) }
        pids = []
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs pactl against pipewire-pulse; throws when it fails.
    private func pactl(_ arguments: [String]) throws -> String {
        try BenchChild.output(of: URL(fileURLWithPath: "/usr/bin/pactl"), arguments: arguments, environment: environment, name: "pactl")
    }

    /// Waits up to 10 s for `condition`; throws naming `what` when it does not hold, or when a
    /// daemon exited.
    private func waitUntil(_ what: String, _ condition: () -> Bool) throws {
        let deadline = Measure.wallSeconds() + 10
        while Measure.wallSeconds() < deadline {
            if pids.contains(where: { waitpid($0, nil, WNOHANG) != 0 }) { break }
            if condition() { return }
            Thread.sleep(forTimeInterval: 0.02)
        }
        throw InterludeError(.deviceUnavailable, "BenchPipeWireServer: no \(what) within 10 s (pipewire, wireplumber and pipewire-pulse: `make deps` installs them)")
    }
}
