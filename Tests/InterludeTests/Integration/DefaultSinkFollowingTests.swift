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
        /// (what the old sink played last against what the new one plays first): what a
        /// PulseAudio null sink had taken but not yet played goes unheard (up to about 40 ms
        /// measured on PulseAudio; about 1 ms on PipeWire).
        static let movedGapBoundMs = 60.0
        /// The most that may go missing when the engine moves the device (where the server may
        /// not move the stream): a reopen or a rebuild drops what the old stream had buffered.
        static let engineMoveGapBoundMs = 300.0

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

        /// Who moves the game to the new default.
        enum Mover: String, CaseIterable, CustomTestStringConvertible {
            /// The server moves our stream (OpenAL Soft's `allow-moves`, which the engine sets).
            case server
            /// The user's alsoft.conf says `allow-moves = false`: the server may not move our
            /// stream, and the engine moves the device (1.22 and later: reopened in place; 1.19:
            /// rebuilt on a new device).
            case engine
            var testDescription: String { rawValue }
        }

        /// A running server of `stack`'s kind with the default sink "spk", and a probe playing
        /// the sweep on the system default through `stack`'s backend; nil (with a printed
        /// reason) where the loaded library lacks that backend, or `mover` does not apply.
        static func start(_ stack: Stack, _ mover: Mover) throws -> (server: any PrivateAudioServer, probe: PulseProbeProcess, keep: AnyObject, sinkArguments: [String])? {
            let release = ALLibrary.fileRelease?.description ?? "unknown"
            var extra: [String: String] = [:]
            if mover == .engine {
                guard stack != .pipewireNative else {
                    print("DEFAULT-SINK \(stack.rawValue)/\(mover.rawValue) not run: allow-moves is the PulseAudio backend's setting; WirePlumber moves a native PipeWire stream")
                    return nil
                }
            }
            switch stack {
            case .pulseaudio:
                // Sinks that do not rewind, whose monitors record what they play (see
                // PulseSessionSourceTests.followsTheDefaultSink).
                let server = try PrivatePulseServer(sinkArguments: ["norewinds=1"])
                if mover == .engine { extra["ALSOFT_CONF"] = try userConfiguration(in: server.folder) }
                let probe = try Loss.startPlaying(server, extraEnvironment: extra)
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
                var environment = native ? server.nativeClientEnvironment : server.clientEnvironment
                if mover == .engine { environment["ALSOFT_CONF"] = try userConfiguration(in: server.folder) }
                let probe = try PulseProbeProcess(environment: environment,
                                                  arguments: ["--music", PulseProbeProcess.sweepPath, "--seconds", "60"])
                guard probe.waitFor("opened") != nil else {
                    throw TestFailure("the probe did not open the device: \(probe.stderrText)")
                }
                return (server, probe, server, [])
            }
        }

        /// A user's alsoft.conf that keeps the server from moving our stream; returns its path.
        static func userConfiguration(in folder: URL) throws -> String {
            let path = folder.appendingPathComponent("user-alsoft.conf")
            try "[pulse]\nallow-moves = false\n".write(to: path, atomically: true, encoding: .utf8)
            return path.path
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
              arguments: Stack.allCases, Mover.allCases)
        func newDefaultSink(_ stack: Stack, _ mover: Mover) throws {
            guard let (server, probe, keep, sinkArguments) = try Self.start(stack, mover) else { return }
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
            // The server moves our stream (OpenAL Soft's allow-moves). A stream it may not move is
            // reopened in place where the library can (ALC_SOFT_reopen_device, 1.22 and later):
            // nothing held; else rebuilt on the new default, held and resumed on one frame.
            let reopened = Self.waitForLog(probe, "reopened there in place", timeoutSeconds: mover == .engine ? 2 : 0.2)
            let movedBy = reopened ? "reopen" : suspended == nil ? "server move" : "rebuild"
            switch mover {
            case .server:
                #expect(movedBy == "server move", "the server moved the stream: nothing was reopened or rebuilt (\(movedBy))")
            case .engine:
                let canReopen = ALLibrary.fileRelease.map { $0 >= ALRelease(major: 1, minor: 22, patch: 0) } ?? false
                #expect(movedBy == (canReopen ? "reopen" : "rebuild"), "moved by \(movedBy): \(probe.stderrText.suffix(2000))")
                if reopened {
                    #expect(suspended == nil && resumed == nil, "reopened in place: nothing held")
                } else {
                    #expect(suspended != nil && resumed == suspended, "rebuilt, resumed at \(resumed ?? -1), held at \(suspended ?? -1)")
                }
            }
            let progressFrom = try #require(probe.allLines.last { $0.event == "tick" }?.int("position"))
            try Loss.waitForProgress(probe, from: progressFrom, frames: Int(Self.trackRate * 0.5))
            // Long enough after the move that the old sink's silence shows past what a recorder
            // loses when it stops.
            Thread.sleep(forTimeInterval: 0.5)

            let old = try oldRecording.finish()
            let oldEnd = try #require(old.samples.lastIndex { abs($0) > 0.05 }, "the old default's recording is silent") + 1
            #expect(old.samples.count - oldEnd > old.sampleRate * 3 / 10, "the old sink falls silent after the move: its last sound is \(Double(old.samples.count - oldEnd) / Double(old.sampleRate)) s before the recording's end")
            let heardStop = try #require(old.sweepPosition(atSoundEnd: oldEnd), "no sweep on the old default before the change")
            let new = try newRecording.finish()
            let soundStart = try #require(new.firstSound(), "the new default sink's recording is silent")
            #expect(new.rms(from: soundStart, count: new.sampleRate / 10) > 0.2, "the sweep at 0.5 plays on the new default")
            let heardStart = try #require(new.sweepPosition(atSoundStart: soundStart))
            #expect(heardStart > 1.0, "the soundtrack went on where it was (heard from \(heardStart) s), not from its start")
            let gapMs = (heardStart - heardStop) * 1000
            let bound = movedBy == "server move" ? Self.movedGapBoundMs : Self.engineMoveGapBoundMs
            #expect(abs(gapMs) <= bound, "the sweep stopped on the old sink at \(heardStop) s and went on on the new one at \(heardStart) s (\(movedBy))")
            let release = ALLibrary.fileRelease?.description ?? "unknown"
            // The engine's own line: "output reopened in place on NAME in N ms".
            let reopenLine = probe.stderrText.split(separator: "\n").first { $0.contains("output reopened in place") }
            let reopenTook = reopenLine.flatMap { $0.split(separator: " ").dropLast().last }.map { ", the reopen call \($0) ms" } ?? ""
            print(String(format: "DEFAULT-SINK %@/%@ on OpenAL Soft %@: moved by %@, gap %.1f ms (sweep stops on the old sink at %.3f s, goes on on the new one at %.3f s)%@",
                         stack.rawValue, mover.rawValue, release, movedBy, gapMs, heardStop, heardStart, reopenTook))
            let cellRoute: StackCell.Route = switch stack {
            case .pulseaudio: .pulseAudio
            case .pipewirePulse: .pipeWirePulse
            case .pipewireNative: .pipeWireNative
            }
            StackCell.record(cellRoute, .defaultSink, part: mover == .server ? "stream moved" : "allow-moves off",
                             String(format: "%@, in position, gap %.0f ms", movedBy, gapMs))
            #expect(probe.closeInputAndWait() != nil)
        }

        @Test("who sees a new default sink: on 1.19 only the engine's libpulse connection (no ALC_SOFT_system_events); on 1.24 OpenAL Soft reports it too")
        func whoSeesTheNewDefault() throws {
            guard PrivatePulseServer.isInstalled else {
                throw TestFailure("pulseaudio / pulseaudio-utils are not installed (scripts/install-deps.sh installs them)")
            }
            let server = try PrivatePulseServer(sinkArguments: ["norewinds=1"])
            try server.start()
            // --log-debug: the engine names the library's extensions at debug level.
            let probe = try PulseProbeProcess(environment: server.clientEnvironment,
                                              arguments: ["--music", PulseProbeProcess.sweepPath, "--seconds", "60", "--log-debug"])
            defer { probe.kill() }
            _ = try #require(probe.waitFor("opened")?.line, "the probe did not open the device: \(probe.stderrText)")
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
