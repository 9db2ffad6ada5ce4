#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import Interlude

extension EngineSuites {
    /// A new default output while the soundtrack plays, on each stack a player runs: a new sink
    /// appears and becomes the default, and a `.systemDefault` engine's game is heard there, the
    /// old sink falls silent, and the soundtrack goes on where it was. Heard on both sinks'
    /// monitors. Figures are printed as `DEFAULT-SINK` lines.
    @Suite struct DefaultSinkFollowingTests {
        typealias Loss = PulseDeviceLossTests
        static let trackRate = Loss.trackRate
        /// The most audio of the soundtrack that may go missing across a move by the server
        /// (what the old sink played last against what the new one plays first).
        static let movedGapBoundMs = 50.0
        /// The most that may go missing across a rebuild on the new default (where the server may
        /// not move the stream): a rebuild drops what the old stream had buffered.
        static let rebuiltGapBoundMs = 300.0

        /// The server and the OpenAL Soft backend the game plays through.
        enum Stack: String, CaseIterable, CustomTestStringConvertible {
            /// PulseAudio, OpenAL Soft's PulseAudio backend.
            case pulseaudio
            /// PipeWire through pipewire-pulse, OpenAL Soft's PulseAudio backend (all 1.19 has).
            case pipewirePulse
            /// PipeWire, OpenAL Soft's native PipeWire backend (1.22 and later).
            case pipewireNative
            var testDescription: String { rawValue }
        }

        /// A running server of `stack`'s kind with the default sink "spk", and a probe playing
        /// the sweep on the system default through `stack`'s backend; nil (with a printed
        /// reason) where the loaded library lacks that backend.
        static func start(_ stack: Stack) throws -> (server: any PrivateAudioServer, probe: PulseProbeProcess, keep: AnyObject, sinkArguments: [String])? {
            let release = ALLibrary.fileRelease?.description ?? "unknown"
            switch stack {
            case .pulseaudio:
                // Sinks that do not rewind, whose monitors record what they play (see
                // PulseSessionSourceTests.followsTheDefaultSink).
                let server = try PrivatePulseServer(sinkArguments: ["norewinds=1"])
                let probe = try Loss.startPlaying(server)
                return (server, probe, server, ["norewinds=1"])
            case .pipewirePulse, .pipewireNative:
                let native = stack == .pipewireNative
                guard !native || ALLibrary.hasPipeWireBackend else {
                    print("DEFAULT-SINK \(stack.rawValue) not run: OpenAL Soft \(release) has no native PipeWire backend (it came in 1.22); pipewirePulse runs the case over pipewire-pulse")
                    return nil
                }
                guard PrivatePipeWireServer.isInstalled else {
                    throw TestFailure("pipewire, pipewire-pulse, wireplumber, dbus-daemon or pulseaudio-utils is not installed (scripts/install-deps.sh installs them)")
                }
                let server = try PrivatePipeWireServer(configuredSinks: ["spk"])
                try server.start()
                let probe = try PulseProbeProcess(environment: native ? server.nativeClientEnvironment : server.clientEnvironment,
                                                  arguments: ["--music", PulseProbeProcess.sweepPath, "--seconds", "60"])
                guard probe.waitFor("opened") != nil else {
                    throw TestFailure("the probe did not open the device: \(probe.stderrText)")
                }
                return (server, probe, server, [])
            }
        }

        /// The probe's log has `text` within `timeoutSeconds`.
        static func waitForLog(_ probe: PulseProbeProcess, _ text: String, timeoutSeconds: Double = 5) -> Bool {
            let deadline = ContinuousClock.now + .seconds(timeoutSeconds)
            while ContinuousClock.now < deadline {
                if probe.stderrText.contains(text) { return true }
                Thread.sleep(forTimeInterval: 0.02)
            }
            return probe.stderrText.contains(text)
        }

        @Test("a new sink appears and becomes the default while the soundtrack plays: the game is heard there, the old sink falls silent, the soundtrack goes on where it was",
              arguments: Stack.allCases)
        func newDefaultSink(_ stack: Stack) throws {
            guard let (server, probe, keep, sinkArguments) = try Self.start(stack) else { return }
            defer { probe.kill() }
            _ = keep
            try Loss.waitForProgress(probe, from: 0, frames: Int(Self.trackRate * 1.0))
            // The default source stays spk.monitor: otherwise it follows the default sink, and the
            // server moves spk's recorder along with it.
            _ = try server.pactl(["set-default-source", "spk.monitor"])
            let oldRecording = try MonitorRecording(server, name: "old-default", sink: "spk")
            // The new sink appears while the game plays, then becomes the default.
            _ = try server.pactl(["load-module", "module-null-sink", "sink_name=fresh"] + sinkArguments)
            let newRecording = try MonitorRecording(server, name: "new-default", sink: "fresh")
            Thread.sleep(forTimeInterval: 0.5)
            let start = probe.lineCount
            _ = try server.pactl(["set-default-sink", "fresh"])
            let route = try #require(probe.waitFor("routeChanged", from: start)?.line, "no routeChanged: \(probe.stderrText.suffix(3000))")
            #expect(route.string("from") == "spk" && route.string("to") == "fresh")
            #expect(probe.lines(matching: "began", from: start).isEmpty, "a move is not an interruption")
            let suspended = probe.lines(matching: "musicSuspended", from: start).first?.int("frame")
            let resumed = probe.lines(matching: "musicResumed", from: start).first?.int("frame")
            // The server moves our stream (OpenAL Soft's allow-moves); a stream it may not move
            // is rebuilt on the new default, held and resumed on one frame.
            let movedBy = suspended == nil ? "server move" : "rebuild"
            if suspended != nil {
                #expect(resumed == suspended, "rebuilt, resumed at \(resumed ?? -1), held at \(suspended ?? -1)")
            }
            let progressFrom = try #require(probe.allLines.last { $0.event == "tick" }?.int("position"))
            try Loss.waitForProgress(probe, from: progressFrom, frames: Int(Self.trackRate * 0.5))
            Thread.sleep(forTimeInterval: 0.2)

            let old = try oldRecording.finish()
            let oldEnd = try #require(old.samples.lastIndex { abs($0) > 0.05 }, "the old default's recording is silent") + 1
            #expect(old.samples.count - oldEnd > old.sampleRate / 2, "the old sink falls silent after the move: its last sound is \(Double(old.samples.count - oldEnd) / Double(old.sampleRate)) s before the recording's end")
            let heardStop = try #require(PulseSessionSourceTests.sweepPosition(old, atSoundEnd: oldEnd), "no sweep on the old default before the change")
            let new = try newRecording.finish()
            let soundStart = try #require(new.firstSound(), "the new default sink's recording is silent")
            #expect(new.rms(from: soundStart, count: new.sampleRate / 10) > 0.2, "the sweep at 0.5 plays on the new default")
            let heardStart = try #require(new.sweepPosition(atSoundStart: soundStart))
            #expect(heardStart > 1.0, "the soundtrack went on where it was (heard from \(heardStart) s), not from its start")
            let gapMs = (heardStart - heardStop) * 1000
            let bound = suspended == nil ? Self.movedGapBoundMs : Self.rebuiltGapBoundMs
            #expect(abs(gapMs) <= bound, "the sweep stopped on the old sink at \(heardStop) s and went on on the new one at \(heardStart) s (\(movedBy))")
            let release = ALLibrary.fileRelease?.description ?? "unknown"
            print(String(format: "DEFAULT-SINK %@ on OpenAL Soft %@: moved by %@, gap %.1f ms (sweep stops on the old sink at %.3f s, goes on on the new one at %.3f s)",
                         stack.rawValue, release, movedBy, gapMs, heardStop, heardStart))
            #expect(probe.closeInputAndWait() != nil)
        }

        @Test("who sees a new default sink: on 1.19 only the engine's libpulse connection (no ALC_SOFT_system_events); on 1.24 OpenAL Soft reports it too")
        func whoSeesTheNewDefault() throws {
            let server = try PrivatePulseServer(sinkArguments: ["norewinds=1"])
            let probe = try Loss.startPlaying(server)
            defer { probe.kill() }
            let hasEvents = ALLibrary.fileRelease.map { $0 >= ALRelease(major: 1, minor: 24, patch: 0) } ?? false
            let release = ALLibrary.fileRelease?.description ?? "unknown"
            let capabilities = "ALC_SOFT_system_events \(hasEvents ? "yes" : "no")"
            #expect(Self.waitForLog(probe, capabilities), "the engine names what OpenAL Soft \(release) offers: \(probe.stderrText.suffix(2000))")
            _ = try server.pactl(["load-module", "module-null-sink", "sink_name=fresh", "norewinds=1"])
            let start = probe.lineCount
            _ = try server.pactl(["set-default-sink", "fresh"])
            // Either way the engine's connection sees it, and the game follows.
            let route = try #require(probe.waitFor("routeChanged", from: start)?.line, "no routeChanged: \(probe.stderrText.suffix(2000))")
            #expect(route.string("to") == "fresh")
            let reported = Self.waitForLog(probe, "OpenAL reports a new default output", timeoutSeconds: hasEvents ? 5 : 1)
            if hasEvents {
                // 1.24: OpenAL Soft's own event arrives (ALC_EVENT_TYPE_DEFAULT_DEVICE_CHANGED_SOFT).
                #expect(reported, "no event from OpenAL Soft \(release): \(probe.stderrText.suffix(2000))")
            } else {
                // 1.19: nothing from OpenAL; the libpulse connection is what followed.
                #expect(!reported, "OpenAL Soft \(release) reported a default device change it has no extension for")
            }
            print("DEFAULT-SINK events on OpenAL Soft \(release): OpenAL's own event \(reported ? "arrived" : "none (libpulse following needed)"); routeChanged from the engine's connection")
            #expect(probe.closeInputAndWait() != nil)
        }
    }
}
