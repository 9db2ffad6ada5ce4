#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import Interlude

extension EngineSuites {
    /// The sleep source's device check on a real device: PulseProbe plays to a private PulseAudio
    /// server with its default configuration (the sleep source on, the system bus taken from
    /// DBUS_SYSTEM_BUS_ADDRESS, pointed at a private bus where LogindStub stands in for logind).
    /// The server dies while the machine sleeps and is back before the wake. With the engine's
    /// libpulse watch of the server (issue 14's server source) the loss is usually seen during
    /// sleep; the sleep source's own check covers outputs without that watch.
    @Suite(.enabled(if: PrivateSystemBus.isInstalled && PrivatePulseServer.isInstalled))
    struct LogindPulseTests {
        @Test("A server gone during sleep: the device is lost before the sleep hold lets go, so the rebuild, not the wake, brings the soundtrack back on its frame")
        func deviceGoneDuringSleep() throws {
            let bus = try PrivateSystemBus()
            try bus.start()
            let stub = try LogindStubProcess(on: bus)
            let server = try PrivatePulseServer()
            let probe = try PulseDeviceLossTests.startPlaying(server, extraEnvironment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address])
            defer { probe.kill() }
            let deadline = 30.0
            try #require(stub.waitFor("inhibit-taken 1 sleep delay", timeoutSeconds: deadline) != nil,
                         "the probe's engine takes the lock: \(probe.stderrText)")

            let beforeSleep = probe.lineCount
            stub.send("sleep")
            try #require(probe.waitFor("began", from: beforeSleep, timeoutSeconds: deadline) { $0.string("reason") == "systemSleep" } != nil)
            let suspended = try #require(probe.waitFor("musicSuspended", from: beforeSleep, timeoutSeconds: deadline)?.line.int("frame"))
            #expect(stub.waitFor("inhibit-released 1", timeoutSeconds: deadline) != nil)

            // The audio server dies while the machine sleeps, and a new one is up by the wake.
            server.kill()
            try server.start()
            let beforeWake = probe.lineCount
            stub.send("wake")
            // The loss is seen during sleep by the engine's libpulse watch of the server, or at the
            // wake by the sleep source's ALC_CONNECTED check: either way while the session is
            // still held (a hold added, not a begin), and the device may be rebuilt before or after
            // the wake. The session is active again only once both the device and the sleep let go.
            let lost = try #require(probe.waitFor("holdAdded", from: beforeSleep, timeoutSeconds: deadline) { $0.string("source") == "device" },
                                    "the device loss holds the session: \(probe.allLines.dropFirst(beforeSleep).map(\.fields))")
            let ended = try #require(probe.waitFor("ended", from: beforeSleep, timeoutSeconds: deadline))
            #expect(ended.index >= beforeWake, "nothing resumes while the machine sleeps")
            let reset = try #require(probe.waitFor("servicesReset", from: lost.index, timeoutSeconds: deadline))
            #expect(reset.index < ended.index, "the session is active only on the rebuilt device")
            #expect(probe.waitFor("musicResumed", from: beforeSleep, timeoutSeconds: deadline)?.line.int("frame") == suspended,
                    "the soundtrack resumes on the frame it stopped at")
            try PulseDeviceLossTests.waitForProgress(probe, from: suspended, frames: Int(PulseDeviceLossTests.trackRate * 0.2),
                                                     timeoutSeconds: deadline)
            #expect(stub.waitFor("inhibit-taken 2", timeoutSeconds: deadline) != nil, "a new lock after the wake")
            StackCell.record(.pulseAudio, .sleep, part: "server restarted while asleep",
                             "held from the sleep to the wake; rebuilt on the new server, resumed on its frame")
            #expect(probe.closeInputAndWait(timeoutSeconds: deadline) != nil)
        }

        /// Sleep and wake with the server up throughout, heard on its sink's monitor: silent
        /// from the sleep's hold to the wake, and the soundtrack going on where it stopped.
        @Test("Sleep and wake on each server and backend: the game's sink is exactly silent while asleep, and the soundtrack goes on where it was heard to stop",
              arguments: ServerKind.allCases)
        func sleepAndWakeHeard(_ kind: ServerKind) throws {
            let deadline = 30.0
            guard let stack = try ServerUnderTest.start(kind, label: "SLEEP") else { return }
            let bus = try PrivateSystemBus()
            try bus.start()
            let stub = try LogindStubProcess(on: bus)
            var probeEnvironment = stack.clientEnvironment
            probeEnvironment["DBUS_SYSTEM_BUS_ADDRESS"] = bus.address
            let probe = try PulseProbeProcess(environment: probeEnvironment,
                                              arguments: ["--music", PulseProbeProcess.sweepPath, "--seconds", "60", "--tick-ms", "50"])
            defer { probe.kill() }
            try #require(probe.waitFor("opened", timeoutSeconds: deadline) != nil, "\(probe.stderrText)")
            try #require(stub.waitFor("inhibit-taken 1 sleep delay", timeoutSeconds: deadline) != nil,
                         "the probe's engine takes the lock: \(probe.stderrText)")
            try PulseDeviceLossTests.waitForProgress(probe, from: 0, frames: Int(PulseDeviceLossTests.trackRate * 1.0), timeoutSeconds: deadline)
            let recording = try MonitorRecording(stack.server, name: "sleep")
            Thread.sleep(forTimeInterval: 0.5)

            let start = probe.lineCount
            stub.send("sleep")
            let began = try #require(probe.waitFor("began", from: start, timeoutSeconds: deadline) { $0.string("reason") == "systemSleep" }?.line)
            let suspended = try #require(probe.waitFor("musicSuspended", from: start, timeoutSeconds: deadline)?.line.int("frame"))
            #expect(stub.waitFor("inhibit-released 1", timeoutSeconds: deadline) != nil)
            Thread.sleep(forTimeInterval: 1.5)
            stub.send("wake")
            let ended = try #require(probe.waitFor("ended", from: start, timeoutSeconds: deadline)?.line)
            #expect(probe.waitFor("musicResumed", from: start, timeoutSeconds: deadline)?.line.int("frame") == suspended,
                    "the soundtrack resumes on the frame it stopped at")
            try PulseDeviceLossTests.waitForProgress(probe, from: suspended, frames: Int(PulseDeviceLossTests.trackRate * 0.5), timeoutSeconds: deadline)
            Thread.sleep(forTimeInterval: 0.2)
            let heard = try recording.finish()
            let call = try PulseSessionSourceTests.checkHeardCall(heard, began: began, ended: ended)
            StackCell.record(kind.route, .sleep, abs(call.continuityMs) < 50
                ? String(format: "sink exactly silent from the sleep to the wake (%.1f s); resumed on its frame (%.0f ms from where it was heard to stop)", call.silenceSeconds, call.continuityMs)
                : String(format: "sink exactly silent from the sleep to the wake (%.1f s); **heard again %+.0f ms from where it stopped**", call.silenceSeconds, call.continuityMs))
            #expect(probe.closeInputAndWait(timeoutSeconds: deadline) != nil)
        }
    }
}
