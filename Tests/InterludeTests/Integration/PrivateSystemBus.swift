#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A private D-Bus daemon configured like a system bus (type system, EXTERNAL auth), listening
/// on a socket in a fresh temporary folder, with a policy that lets the test's stand-in logind
/// own org.freedesktop.login1. Engines reach it through
/// ``SoundEngine/Configuration/LogindSources/systemBusAddress``, children through
/// DBUS_SYSTEM_BUS_ADDRESS; the machine's own system bus is never touched. Stopped by its PID only.
final class PrivateSystemBus: @unchecked Sendable {
    let folder: URL
    var socketPath: String { folder.appendingPathComponent("system_bus_socket").path }
    /// The bus's D-Bus address.
    var address: String { "unix:path=\(socketPath)" }
    private var process: ChildProcess?

    /// Whether `dbus-daemon` is on the PATH.
    static var isInstalled: Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/dbus-daemon")
        }
    }

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("interlude-bus-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let rules = ["send_type", "receive_type"].flatMap { direction in
            ["method_call", "method_return", "signal", "error"].map { "    <allow \(direction)=\"\($0)\"/>" }
        }
        let configuration = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>system</type>
              <listen>\(address)</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow user="*"/>
                <allow own="*"/>
            \(rules.joined(separator: "\n"))
              </policy>
            </busconfig>
            """
        try configuration.write(to: folder.appendingPathComponent("system.conf"), atomically: true, encoding: .utf8)
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// True while the daemon runs.
    var isRunning: Bool { process?.isRunning ?? false }

    /// Starts the daemon (again, on the same socket) and waits for its socket.
    func start(timeoutSeconds: Double = 10) throws {
        precondition(process == nil, "the bus is already running")
        try? FileManager.default.removeItem(atPath: socketPath)
        let log = folder.appendingPathComponent("daemon.log")
        let descriptor = open(log.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        defer { close(descriptor) }
        process = try ChildProcess([
            "dbus-daemon", "--config-file=\(folder.appendingPathComponent("system.conf").path)", "--nofork", "--nopidfile",
        ], environment: ProcessInfo.processInfo.environment, stdout: descriptor, stderr: descriptor)
        let deadline = ContinuousClock.now + .seconds(timeoutSeconds)
        while !FileManager.default.fileExists(atPath: socketPath) {
            guard ContinuousClock.now < deadline, isRunning else {
                throw TestFailure("dbus-daemon did not start: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }

    /// Kills the daemon at once (a bus that dies mid-run), or stops it at the end of a test.
    func stop(_ signal: Int32 = SIGTERM) {
        process?.stop(signal)
        process = nil
    }
}
