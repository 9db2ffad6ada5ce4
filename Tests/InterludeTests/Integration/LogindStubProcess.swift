#if canImport(Glibc)
import Glibc
#endif
import Foundation
@testable import Interlude

/// The LogindStub executable (Tests/LogindStub): a stand-in logind on a ``PrivateSystemBus``,
/// driven by command lines on its standard input, reporting what it saw (inhibitor locks taken
/// and released, session lookups) as lines on its standard output.
final class LogindStubProcess: Sendable {
    private let child: LineReadingChild<String>

    /// Starts the stub on `bus` (`preparingForSleep`: the machine is going to sleep as it
    /// starts); waits for it to own org.freedesktop.login1.
    init(on bus: PrivateSystemBus, preparingForSleep: Bool = false, timeoutSeconds: Double = 20) throws {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = bus.address
        child = try LineReadingChild([try ProductProcess.executable("LogindStub").path] + (preparingForSleep ? ["--preparing-for-sleep"] : []),
                                     environment: environment) { text, _ in text }
        guard waitFor("ready", timeoutSeconds: timeoutSeconds) != nil else {
            stop()
            throw TestFailure("LogindStub did not start: \(stderrText)")
        }
    }

    var stderrText: String { child.errorText }
    var allLines: [String] { child.lines }

    /// The first line at or after `index` starting with `prefix`, waiting up to `timeoutSeconds`.
    func waitFor(_ prefix: String, from index: Int = 0, timeoutSeconds: Double) -> (index: Int, line: String)? {
        child.waitFor(from: index, timeoutSeconds: timeoutSeconds) { $0.hasPrefix(prefix) }
    }

    /// Sends a command: sleep, wake, inactive, active.
    func send(_ command: String) {
        child.send(command)
    }

    /// Kills the stub (logind gone, or the end of a test).
    func stop() {
        child.kill()
    }
}
