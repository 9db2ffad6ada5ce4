#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import Interlude

extension EngineSuites {
    /// A PipeWire server restarted under a playing game (issue 41): its three daemons killed, and
    /// started again 2 s later. On OpenAL Soft 1.22 and later the engine plays through the native
    /// PipeWire backend (the one 1.23 and later pick first on a PipeWire desktop), which never
    /// reports its server's death; on 1.19, which has no such backend, through pipewire-pulse.
    /// Heard on the recording of the game's sink. Figures are printed as `PULSE-FIGURES` lines.
    @Suite struct PipeWireRestartTests {
        typealias Loss = PulseDeviceLossTests
        static let trackRate = Loss.trackRate
        /// How soon after the restart the soundtrack must be heard again.
        static let audibleWithinMs = 1000.0
        /// How long the server stays dead.
        static let downSeconds = 2.0

        /// The OpenAL library the probe mapped (its path in /proc/PID/maps).
        static func mappedOpenAL(_ pid: pid_t) -> String {
            // Read as a stream: /proc files report a size of 0.
            let data = FileHandle(forReadingAtPath: "/proc/\(pid)/maps")?.readDataToEndOfFile() ?? Data()
            let maps = String(decoding: data, as: UTF8.self)
            let paths = maps.split(separator: "\n").compactMap { line -> String? in
                guard let path = line.split(separator: " ", omittingEmptySubsequences: true).last, path.contains("libopenal") else { return nil }
                return String(path)
            }
            return paths.first ?? "none mapped"
        }

        /// The probe's stream as pipewire-pulse lists it: one sink input whose node is named
        /// after the probe. A stream made through libpulse carries `client.api =
        /// "pipewire-pulse"` and the process id; one made through PipeWire's own protocol neither.
        static func probeStream(_ server: PrivatePipeWireServer) throws -> (isNative: Bool, text: String) {
            let listing = try server.pactl(["list", "sink-inputs"])
            let blocks = listing.components(separatedBy: "Sink Input #").dropFirst()
            let ours = try #require(blocks.first { $0.contains("node.name = \"PulseProbe\"") }, "the probe's stream is not on the server: \(listing)")
            let isNative = !ours.contains("client.api = \"pipewire-pulse\"") && !ours.contains("application.process.id")
            return (isNative, String(ours.prefix(400)))
        }

        /// The probe's log from the loss on, without the mixer clock's lines, for a failure message.
        static func logSince(_ lost: ProbeLine, _ probe: PulseProbeProcess) -> String {
            let lines = probe.stderrText.split(separator: "\n").filter { !$0.contains("the mixer's clock") && !$0.contains("logind") }
            return lines.suffix(30).joined(separator: "\n")
        }

        /// The OpenAL Soft backend the probe plays through.
        enum Backend: String, CaseIterable, CustomTestStringConvertible {
            /// The native PipeWire backend (1.22 and later), which 1.23 and later pick first on a
            /// PipeWire desktop.
            case pipewire
            /// The PulseAudio backend, through pipewire-pulse (all that 1.19 has).
            case pulse
            var testDescription: String { rawValue }
        }

        @Test("a PipeWire server killed under the game and restarted 2 s later: the soundtrack is heard again within 1 s of the restart, where it was",
              arguments: Backend.allCases)
        func restartedServer(_ backend: Backend) throws {
            guard PrivatePipeWireServer.isInstalled else {
                throw TestFailure("pipewire, pipewire-pulse, wireplumber, dbus-daemon or pulseaudio-utils is not installed (scripts/install-deps.sh installs them): the restart check did not run")
            }
            // The test process maps the same libopenal.so.1 the probe will (LD_LIBRARY_PATH is
            // passed on): its file tells which release answers.
            let release = ALLibrary.fileRelease?.description ?? "unknown"
            let native = backend == .pipewire
            guard !native || ALLibrary.hasPipeWireBackend else {
                print("PIPEWIRE-RESTART not run on the native PipeWire backend: OpenAL Soft \(release) has none (it came in 1.22); the pulse case runs the check over pipewire-pulse")
                return
            }
            let server = try PrivatePipeWireServer(configuredSinks: ["spk"])
            try server.start()
            defer { server.stop() }
            let environment = native ? server.nativeClientEnvironment : server.clientEnvironment
            let probe = try PulseProbeProcess(environment: environment,
                                              arguments: ["--music", PulseProbeProcess.sweepPath, "--seconds", "60", "--log-debug"])
            defer { probe.kill() }
            let opened = try #require(probe.waitFor("opened")?.line, "the probe did not open the device: \(probe.stderrText)")
            try Loss.waitForProgress(probe, from: 0, frames: Int(Self.trackRate * 1.0))
            let library = Self.mappedOpenAL(probe.pid)
            let stream = try Self.probeStream(server)
            let backendName = native ? "OpenAL Soft's native PipeWire backend (ALSOFT_DRIVERS=pipewire)" : "OpenAL Soft's PulseAudio backend over pipewire-pulse (ALSOFT_DRIVERS=pulse)"
            print("PIPEWIRE-RESTART backend: \(backendName); library: \(library), release \(release) (LD_LIBRARY_PATH=\(ProcessInfo.processInfo.environment["LD_LIBRARY_PATH"] ?? "unset")); device \"\(opened.string("device") ?? "?")\"")
            #expect(stream.isNative == native, "the probe's stream is \(stream.isNative ? "native" : "libpulse's"), expected \(native ? "native" : "libpulse's"): \(stream.text)")

            let start = probe.lineCount
            let killedAt = ContinuousClock.now
            server.killDaemons()
            let lost = try #require(probe.waitFor("servicesLost", from: start, timeoutSeconds: 3)?.line,
                                    "no device loss within 3 s of the server's death: \(probe.stderrText.suffix(2000))")
            let suspended = try #require(probe.waitFor("musicSuspended", from: start, timeoutSeconds: 1)?.line.int("frame"), "no musicSuspended at the loss")
            let lossMs = Loss.milliseconds(lost.receivedAt - killedAt)

            let restartDue = killedAt + .seconds(Self.downSeconds)
            while ContinuousClock.now < restartDue { Thread.sleep(forTimeInterval: 0.002) }
            let restartedAt = ContinuousClock.now
            try server.restartDaemons()
            let serverReadyMs = Loss.milliseconds(ContinuousClock.now - restartedAt)
            let recording = try MonitorRecording(server, name: "restart")
            let reset = try #require(probe.waitFor("servicesReset", from: start)?.line, "no rebuild after the restart: \(probe.stderrText.suffix(2000))")
            let resumed = try #require(probe.waitFor("musicResumed", from: start, timeoutSeconds: 1)?.line.int("frame"), "no musicResumed after the rebuild")
            #expect(resumed == suspended, "resumed at frame \(resumed), held at \(suspended)")
            try Loss.waitForProgress(probe, from: resumed, frames: Int(Self.trackRate * 0.5))
            Thread.sleep(forTimeInterval: 0.2)
            // The recording's last sample was recorded at the latest when the recorder is told to
            // stop: timed back from there, a sample is never placed earlier than it was played.
            let stoppedAt = ContinuousClock.now
            let sweep = try recording.finish()
            let soundStart = try #require(sweep.firstSound(), "the recording after the restart is silent (\(sweep.samples.count) samples)")
            let audibleMs = Loss.milliseconds(stoppedAt - restartedAt) - Double(sweep.samples.count - soundStart) / Double(sweep.sampleRate) * 1000
            #expect(sweep.rms(from: soundStart, count: sweep.sampleRate / 10) > 0.2, "the restored audio is the sweep at 0.5")
            #expect(audibleMs < Self.audibleWithinMs, "the soundtrack was heard again \(audibleMs) ms after the restart; the probe's log: \(Self.logSince(lost, probe))")
            let heard = try #require(sweep.sweepPosition(atSoundStart: soundStart), "no sweep at the restored sound's start")
            let positionErrorMs = (heard - Double(suspended) / Self.trackRate) * 1000
            if abs(positionErrorMs) >= Loss.positionToleranceMs {
                print("PIPEWIRE-RESTART detail: \(sweep.describe(expectedStartSeconds: Double(suspended) / Self.trackRate, soundStart: soundStart))")
            }
            #expect(abs(positionErrorMs) < Loss.positionToleranceMs, "the sweep came back at \(heard) s; it was held at \(Double(suspended) / Self.trackRate) s")
            #expect(probe.lines(matching: "tick").last?.int("errors") == 0, "internal AL errors")
            Loss.figure(String(format: "PipeWire restart, %@ backend, OpenAL Soft %@ (%@): server killed -> loss %.0f ms; restart -> server ready %.0f ms, -> rebuilt %.0f ms, -> heard %.0f ms; held at %.3f s, heard from %.3f s (%.1f ms)",
                               backend.rawValue, release, library, lossMs, serverReadyMs,
                               Loss.milliseconds(reset.receivedAt - restartedAt), audibleMs,
                               Double(suspended) / Self.trackRate, heard, positionErrorMs))
            StackCell.record(backend == .pipewire ? .pipeWireNative : .pipeWirePulse, .lossAndRebuild,
                             String(format: "server killed: loss seen in %.0f ms; restarted: server up in %.0f ms, heard again %.0f ms after it was up, on its frame (%.0f ms)",
                                    lossMs, serverReadyMs, audibleMs - serverReadyMs, positionErrorMs))
            #expect(probe.closeInputAndWait() != nil)
        }
    }
}
