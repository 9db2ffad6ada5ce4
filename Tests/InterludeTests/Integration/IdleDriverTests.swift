#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import Interlude

extension EngineSuites {
    /// An open engine with nothing to do parks its driver thread (it wakes only to check the
    /// device) and, a second later, pauses the device's output; a call that gives the update
    /// work wakes it at once and runs the output again, and a device lost while it is parked
    /// and paused is still reported. The engine runs in the PulseProbe child (OpenAL Soft picks
    /// its backend once per process); its ticks say whether the driver is parked (debug builds).
    @Suite struct IdleDriverTests {
        /// The probe's tick, often enough to see a voice's position advance.
        static let tickMilliseconds = 50

        /// The tick's `driverParked`, required: only debug builds print it.
        static func isParked(_ line: ProbeLine) -> Bool {
            line.bool("driverParked") == true
        }

        /// Under `make sanitize-thread` the probe is built with ThreadSanitizer too, and its idle
        /// pause and resume run on real devices there: a race it reports fails the test.
        static func expectNoSanitizerReport(_ probe: PulseProbeProcess) {
            #expect(!probe.stderrText.contains("WARNING: ThreadSanitizer"), "\(probe.stderrText.suffix(4_000))")
        }

        /// The tick's `outputPaused`.
        static func isOutputPaused(_ line: ProbeLine) -> Bool {
            line.bool("outputPaused") == true
        }

        @Test("on the null backend: an idle engine parks its driver and pauses its output, whose clock stands still; a play wakes it and the voice advances; stopping it parks it and pauses the output again")
        func idleEngineParksAndAPlayWakesIt() throws {
            var environment = ProcessInfo.processInfo.environment
            environment["ALSOFT_DRIVERS"] = "null"
            let probe = try PulseProbeProcess(environment: environment, arguments: ["--seconds", "60", "--tick-ms", "\(Self.tickMilliseconds)"])
            defer { probe.kill() }
            let opened = try #require(probe.waitFor("opened"), "\(probe.stderrText)")
            let firstTick = try #require(probe.waitFor("tick", from: opened.index))
            try #require(firstTick.line.bool("driverParked") != nil, "the probe's ticks print driverParked only in debug builds")
            let parked = try #require(probe.waitFor("tick", from: opened.index, where: Self.isParked),
                                      "the driver never parked with nothing playing")
            // Paused a second after the engine went idle: OpenAL Soft's mixer no longer runs, so
            // the device's clock stands still from one tick to one 0.3 s later.
            let paused = try #require(probe.waitFor("tick", from: parked.index, where: Self.isOutputPaused),
                                      "the output was never paused while idle")
            let pausedClock = try #require(paused.line.double("deviceClockMs"))
            let laterPaused = try #require(probe.waitFor("tick", from: paused.index + 6))
            #expect(Self.isOutputPaused(laterPaused.line))
            #expect(laterPaused.line.double("deviceClockMs") == pausedClock, "the device's clock ran on while its output was paused")

            probe.send("tone")
            let started = try #require(probe.waitFor("toneStarted", from: parked.index), "\(probe.allLines.map(\.fields))")
            // Every tick after the play sees the driver awake, and the voice's position (read
            // from its source) moves on from one tick to a later one: the mixer plays it.
            let first = try #require(probe.waitFor("tick", from: started.index, where: { $0.int("tonePosition").map { $0 >= 0 } == true }))
            let firstPosition = try #require(first.line.int("tonePosition"))
            let later = try #require(probe.waitFor("tick", from: first.index + 1, where: { line in
                (line.int("tonePosition") ?? -1) > firstPosition + 48_000 / 10
            }), "the voice's position stayed at \(firstPosition)")
            let awake = probe.allLines[started.index...later.index].filter { $0.event == "tick" }
            #expect(!awake.contains(where: Self.isParked), "the driver parked while a voice played")
            #expect(!Self.isOutputPaused(later.line))
            #expect((later.line.double("deviceClockMs") ?? 0) > pausedClock + 100, "the device's clock did not run again")

            probe.send("stop-tone")
            let stopped = try #require(probe.waitFor("toneStopped", from: later.index))
            let parkedAgain = try #require(probe.waitFor("tick", from: stopped.index, where: Self.isParked),
                                           "the driver did not park again once the voice stopped")
            #expect(probe.waitFor("tick", from: parkedAgain.index, where: Self.isOutputPaused) != nil,
                    "the output was not paused again once the voice stopped")
            #expect(probe.closeInputAndWait() != nil)
            Self.expectNoSanitizerReport(probe)
        }

        @Test("on the null backend: an interruption (Ctrl-Z, then fg) while the output is paused runs it again at its end; idle, it is paused again, and a play after it is heard")
        func interruptionWhileTheOutputIsPaused() throws {
            var environment = ProcessInfo.processInfo.environment
            environment["ALSOFT_DRIVERS"] = "null"
            let probe = try PulseProbeProcess(environment: environment, arguments: ["--seconds", "60", "--tick-ms", "\(Self.tickMilliseconds)", "--job-control"])
            defer { kill(probe.pid, SIGCONT); probe.kill() }
            let opened = try #require(probe.waitFor("opened"), "\(probe.stderrText)")
            let paused = try #require(probe.waitFor("tick", from: opened.index, where: Self.isOutputPaused), "the output was never paused while idle")
            #expect(JobControlTests.stopWithSIGTSTP(probe.pid), "the probe did not stop after SIGTSTP")
            kill(probe.pid, SIGCONT)
            let ended = try #require(probe.waitFor("ended", from: paused.index), "the interruption did not end: \(probe.allLines.map(\.fields))")
            // The interruption's end runs the output again: the clock moves on between two ticks.
            let running = try #require(probe.waitFor("tick", from: ended.index, where: { !Self.isOutputPaused($0) }))
            let runningClock = try #require(running.line.double("deviceClockMs"))
            let moved = probe.waitFor("tick", from: running.index + 1, where: { line in
                (line.double("deviceClockMs") ?? 0) > runningClock && !Self.isOutputPaused(line)
            })
            #expect(moved != nil, "the device's clock stood still after the interruption ended")
            // Idle, it is paused again; then a play is heard: the voice advances.
            let pausedAgain = try #require(probe.waitFor("tick", from: running.index, where: Self.isOutputPaused),
                                           "the output was not paused again after the interruption")
            probe.send("tone")
            let started = try #require(probe.waitFor("toneStarted", from: pausedAgain.index))
            let first = try #require(probe.waitFor("tick", from: started.index, where: { $0.int("tonePosition").map { $0 >= 0 } == true }))
            let firstPosition = try #require(first.line.int("tonePosition"))
            #expect(probe.waitFor("tick", from: first.index + 1, where: { ($0.int("tonePosition") ?? -1) > firstPosition + 48_000 / 10 }) != nil,
                    "the voice played after the interruption stayed at \(firstPosition)")
            #expect(probe.closeInputAndWait() != nil)
            Self.expectNoSanitizerReport(probe)
        }

        @Test("on PulseAudio: a named device that disappears while the engine is idle, its output paused, is reported as lost, and the engine waits for it")
        func deviceLostWhileIdleIsReported() throws {
            guard PrivatePulseServer.isInstalled else {
                throw TestFailure("pulseaudio / pulseaudio-utils are not installed (scripts/install-deps.sh installs them)")
            }
            let server = try PrivatePulseServer()
            try server.start()
            let module = try PulseSessionSourceTests.loadSecondSink(server)
            let probe = try PulseProbeProcess(environment: server.clientEnvironment,
                                              arguments: ["--seconds", "60", "--tick-ms", "\(Self.tickMilliseconds)",
                                                          "--device", "Second", "--named-loss", "wait"])
            defer { probe.kill() }
            let opened = try #require(probe.waitFor("opened")?.line, "\(probe.stderrText)")
            #expect(opened.string("device") == "Second")
            let parked = try #require(probe.waitFor("tick", where: Self.isParked), "the driver never parked with nothing playing")
            _ = try #require(probe.waitFor("tick", from: parked.index, where: Self.isOutputPaused), "the output was never paused while idle")
            let unloadedAt = ContinuousClock.now
            _ = try server.pactl(["unload-module", module])
            // Only the update's ALC_CONNECTED check sees this loss (the server stays up).
            let lost = try #require(probe.waitFor("servicesLost", from: parked.index), "the named device went without a loss")
            PulseDeviceLossTests.figure(String(format: "named device gone while idle: servicesLost %.0f ms after the unload",
                                               PulseDeviceLossTests.milliseconds(lost.line.receivedAt - unloadedAt)))
            #expect(probe.closeInputAndWait() != nil)
            Self.expectNoSanitizerReport(probe)
        }
    }
}
