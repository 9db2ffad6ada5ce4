import Foundation
import Testing
@testable import Interlude

extension EngineSuites {
    /// `OutputDevice.systemDefaultOrNull` in a process of its own (OpenAL Soft picks its backend
    /// once per process), with nothing in its environment choosing OpenAL Soft's drivers: on a
    /// machine with no audio server and no sound card (this one has no card) it plays on the null
    /// backend, quietly; with a server it plays on the server's device.
    @Suite struct DefaultOrNullTests {
        static let trackRate = PulseDeviceLossTests.trackRate

        /// A probe on `.systemDefaultOrNull` with the server's client environment, minus the
        /// ALSOFT_DRIVERS it sets, playing the sweep.
        static func startProbe(_ server: PrivatePulseServer, extraArguments: [String] = []) throws -> PulseProbeProcess {
            var environment = server.clientEnvironment
            environment.removeValue(forKey: "ALSOFT_DRIVERS")
            environment.removeValue(forKey: "ALSOFT_LOGLEVEL")
            return try PulseProbeProcess(environment: environment,
                                         arguments: ["--music", PulseProbeProcess.sweepPath, "--seconds", "30", "--default-or-null"] + extraArguments)
        }

        /// True when this machine has an ALSA playback device node: then the fallback rightly
        /// picks it, and the no-device tests do not apply.
        static let hasSoundCard = ((try? FileManager.default.contentsOfDirectory(atPath: "/dev/snd")) ?? [])
            .contains { $0.hasPrefix("pcmC") && $0.hasSuffix("p") }

        @Test("No audio server and no sound card: the engine opens OpenAL Soft's null backend, its output runs and the soundtrack moves, and nothing is printed",
              .disabled(if: hasSoundCard, "this machine has a sound card"))
        func noServerGivesTheNullBackend() throws {
            let server = try PrivatePulseServer()
            // Never started: PULSE_SERVER names a socket that does not exist.
            let probe = try Self.startProbe(server)
            defer { probe.kill() }
            let opened = try #require(probe.waitFor("opened")?.line, "\(probe.stderrText)")
            #expect(opened.string("device") == NullBackend.deviceName)
            #expect(opened.string("output") == "null")
            #expect(opened.bool("outputRunning") == true)
            try PulseDeviceLossTests.waitForProgress(probe, from: 0, frames: Int(Self.trackRate * 1.0))
            // Long enough for the engine's own server connection to fail and retry.
            Thread.sleep(forTimeInterval: 1.0)
            #expect(probe.lines(matching: "began").isEmpty && probe.lines(matching: "servicesLost").isEmpty)
            #expect(probe.closeInputAndWait() != nil)
            // No ALSA or OpenAL Soft complaints about a missing card, and no info-level log line
            // from probing the server or logind.
            #expect(probe.stderrText.isEmpty, "\(probe.stderrText)")
        }

        @Test("With --log-debug the same run says why it chose the null backend", .disabled(if: hasSoundCard, "this machine has a sound card"))
        func theChoiceIsLoggedAtDebugLevel() throws {
            let server = try PrivatePulseServer()
            let probe = try Self.startProbe(server, extraArguments: ["--log-debug"])
            defer { probe.kill() }
            #expect(probe.waitFor("opened")?.line.string("device") == NullBackend.deviceName, "\(probe.stderrText)")
            #expect(probe.closeInputAndWait() != nil)
            #expect(probe.stderrText.contains("systemDefaultOrNull: no audio server answers and no sound card: OpenAL Soft's null backend"),
                    "\(probe.stderrText)")
        }

        @Test("A private PulseAudio server answers: the engine opens the server's device, and the sink hears the soundtrack")
        func aServerGivesTheSystemDefault() throws {
            guard PrivatePulseServer.isInstalled else {
                throw TestFailure("pulseaudio / pulseaudio-utils are not installed (scripts/install-deps.sh installs them)")
            }
            let server = try PrivatePulseServer()
            try server.start()
            let probe = try Self.startProbe(server)
            defer { probe.kill() }
            let opened = try #require(probe.waitFor("opened")?.line, "\(probe.stderrText)")
            #expect(opened.string("output") == "systemDefault")
            #expect(opened.string("device") != NullBackend.deviceName)
            let recording = server.folder.appendingPathComponent("default-or-null.wav")
            let recorder = try server.record(to: recording)
            try PulseDeviceLossTests.waitForProgress(probe, from: 0, frames: Int(Self.trackRate * 1.5))
            Thread.sleep(forTimeInterval: 0.3)
            PrivatePulseServer.stopRecorder(recorder)
            let sweep = try SweepRecording(contentsOf: recording)
            let soundStart = try #require(sweep.firstSound(), "the server's sink heard nothing")
            #expect(sweep.rms(from: soundStart, count: sweep.sampleRate / 10) > 0.2)
            #expect(probe.closeInputAndWait() != nil)
        }
    }
}
