#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import Interlude

extension EngineSuites {
    /// libpulse and sd-bus are loaded when a desktop source first needs them, never linked: an
    /// engine on a machine with no audio server and no system bus maps neither, and a server that
    /// starts later is still found by its socket. The engine runs in the PulseProbe child, whose
    /// memory map (/proc/PID/maps) says what it loaded.
    @Suite struct DesktopLibraryLoadingTests {
        typealias Loss = PulseDeviceLossTests

        /// The shared libraries mapped in `pid`, by file name.
        static func mappedLibraries(_ pid: pid_t) throws -> Set<String> {
            // Read to the end: procfs files report a size of 0, which a whole-file read trusts.
            guard let file = FileHandle(forReadingAtPath: "/proc/\(pid)/maps") else { throw TestFailure("no /proc/\(pid)/maps") }
            defer { try? file.close() }
            let maps = String(decoding: try file.readToEnd() ?? Data(), as: UTF8.self)
            return Set(maps.split(separator: "\n").compactMap { line in
                line.split(separator: " ", omittingEmptySubsequences: true).last.map { String($0.split(separator: "/").last ?? "") }
            }.filter { $0.hasPrefix("lib") })
        }

        static func maps(_ libraries: Set<String>, _ prefix: String) -> Bool {
            libraries.contains { $0.hasPrefix(prefix) }
        }

        @Test("no server and no system bus: neither library is mapped; a server started later is found by its socket and connected to")
        func loadedWhenAServerAppears() throws {
            let server = try PrivatePulseServer()
            // No PULSE_SERVER: the server's socket will be at PULSE_RUNTIME_PATH/native, which
            // libpulse looks in; it does not exist until the server starts.
            var environment = server.clientEnvironment
            environment.removeValue(forKey: "PULSE_SERVER")
            environment["PULSE_RUNTIME_PATH"] = server.folder.path
            environment.removeValue(forKey: "DBUS_SYSTEM_BUS_ADDRESS")
            environment["ALSOFT_DRIVERS"] = "null"
            let probe = try PulseProbeProcess(environment: environment,
                                              arguments: ["--music", PulseProbeProcess.sweepPath, "--seconds", "60", "--log-debug"])
            defer { probe.kill() }
            #expect(probe.waitFor("opened")?.line.string("device") == "No Output", "\(probe.stderrText)")
            try Loss.waitForProgress(probe, from: 0, frames: Int(Loss.trackRate * 1.0))

            let before = try Self.mappedLibraries(probe.pid)
            #expect(!Self.maps(before, "libpulse"), "libpulse mapped with no server: \(before.sorted())")
            // logind's sources look for the system bus's socket first: where this machine has one,
            // they use it, and sd-bus is rightly loaded.
            let hasSystemBus = FileManager.default.fileExists(atPath: LogindBus.systemBusSocketPath)
            #expect(Self.maps(before, "libsystemd") == hasSystemBus, "system bus \(hasSystemBus): \(before.sorted())")
            #expect(probe.stderrText.components(separatedBy: "no audio server connection").count - 1 == 1, "\(probe.stderrText)")

            try server.start()
            let startedAt = ContinuousClock.now
            // The wait looks again every 4 s; then connecting takes a few ms.
            let deadline = startedAt + .seconds(PulseConnection.longestRetrySecondsNeverReached + 6)
            while !probe.stderrText.contains("audio server connection ready"), ContinuousClock.now < deadline {
                Thread.sleep(forTimeInterval: 0.02)
            }
            #expect(probe.stderrText.contains("audio server connection ready"), "\(probe.stderrText)")
            let foundSeconds = (ContinuousClock.now - startedAt) / .seconds(1)
            Loss.figure(String(format: "a server started after the engine, with no PULSE_SERVER: connected %.1f s after it started", foundSeconds))
            let after = try Self.mappedLibraries(probe.pid)
            #expect(Self.maps(after, "libpulse"), "\(after.sorted())")
            #expect(probe.lines(matching: "began").isEmpty && probe.lines(matching: "servicesLost").isEmpty)
            let exit = probe.closeInputAndWait()
            #expect(exit != nil && Loss.milliseconds(exit!) < Loss.exitLimitMilliseconds)
        }

        @Test("a client.conf names a server when its default-server line is not commented out")
        func clientConfigDefaultServer() throws {
            let folder = try PrivateServerFolder(kind: "client-conf", subfolders: ["conf"])
            let cases = [
                ("autospawn = no\n", false),
                ("; default-server = unix:/x\n# default-server = unix:/y\n", false),
                ("autospawn = no\n  default-server = unix:/run/user/1000/pulse/native\n", true),
            ]
            for (index, (text, names)) in cases.enumerated() {
                let path = folder.path("client-\(index).conf")
                try text.write(toFile: path, atomically: true, encoding: .utf8)
                #expect(AudioServerPresence.namesDefaultServer(path) == names, "\(text)")
            }
            #expect(!AudioServerPresence.namesDefaultServer(folder.path("missing.conf")))
        }
    }
}
