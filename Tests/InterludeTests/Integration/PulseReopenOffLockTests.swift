import Foundation
import Testing
@testable import Interlude

extension EngineSuites {
    /// A device reopen attempt runs off the engine lock: against a private PulseAudio server
    /// frozen with SIGSTOP, `alcOpenDevice` blocks, and the game's calls go on meanwhile.
    @Suite struct PulseReopenOffLockTests {
        typealias Loss = PulseDeviceLossTests

        @Test("While a reopen attempt is stuck on a frozen server, game calls complete; once it answers, the soundtrack resumes where it was")
        func gameCallsGoOnWhileReopenIsStuck() throws {
            let server = try PrivatePulseServer()
            let probe = try Loss.startPlaying(server)
            defer { probe.kill() }
            try Loss.waitForProgress(probe, from: 0, frames: Int(Loss.trackRate * 0.5))

            let lossStart = probe.lineCount
            server.kill()
            let lost = try #require(probe.waitFor("servicesLost", from: lossStart, timeoutSeconds: 3), "no servicesLost after SIGKILL")
            var suspended = try #require(probe.waitFor("musicSuspended", from: lossStart, timeoutSeconds: 1)?.line.int("frame"))
            probe.send("spin")
            #expect(probe.waitFor("spinStarted", from: lost.index) != nil, "the game thread started: \(probe.stderrText)")

            // The server comes back frozen: the next reopen attempt blocks in alcOpenDevice. An
            // attempt that got through in the moment between the restart and the freeze ends
            // the loss; then the cycle is run again.
            var stuck: ProbeLine?
            for _ in 0..<3 {
                let restartIndex = probe.lineCount
                try server.start()
                server.freeze()
                // By order: game calls that began and ended inside one attempt, read from the
                // engine's own statistics (which take the engine lock) while the server is frozen.
                stuck = probe.waitFor("tick", from: restartIndex, timeoutSeconds: 20, where: { line in
                    line.bool("reopening") == true && (line.int("spinDuringReopen") ?? 0) >= 100
                })?.line
                if stuck != nil { break }
                guard probe.waitFor("servicesReset", from: restartIndex, timeoutSeconds: 0) != nil else { break }
                // The game thread stopped when the device came back: lose it again, play again.
                server.thaw()
                let again = probe.lineCount
                server.kill()
                #expect(probe.waitFor("servicesLost", from: again, timeoutSeconds: 3) != nil)
                suspended = try #require(probe.waitFor("musicSuspended", from: again, timeoutSeconds: 1)?.line.int("frame"))
                probe.send("spin")
                #expect(probe.waitFor("spinStarted", from: again) != nil)
            }
            let frozenTick = try #require(stuck, "no 100 game calls completed inside one reopen attempt while the server was frozen: \(probe.allLines.suffix(5).map(\.fields))")
            #expect(frozenTick.string("state") == "interrupted(reason: deviceLost)")

            let thawIndex = probe.lineCount
            server.thaw()
            guard probe.waitFor("servicesReset", from: thawIndex, timeoutSeconds: 10) != nil else {
                Issue.record("no servicesReset after the server answered again: \(probe.allLines.suffix(5).map(\.fields))")
                return
            }
            let resumed = try #require(probe.waitFor("musicResumed", from: thawIndex, timeoutSeconds: 2)?.line.int("frame"))
            #expect(resumed == suspended, "resumed at \(resumed), lost at \(suspended)")
            let done = try #require(probe.waitFor("spinDone", from: lost.index)?.line)
            Loss.figure("reopen off the lock: \(done.int("calls") ?? -1) game calls during the loss, \(done.int("duringReopen") ?? -1) inside one stuck reopen attempt")
            // The soundtrack plays on the new device, and the looping tone loaded during the loss
            // (after the attempt took its list of sounds) plays on a real source, without errors.
            try Loss.waitForProgress(probe, from: resumed, frames: Int(Loss.trackRate * 0.3))
            let playing = probe.waitFor("tick", from: thawIndex, timeoutSeconds: 5, where: { line in
                line.string("state") == "active" && (line.int("realVoices") ?? 0) >= 1
            })?.line
            #expect(playing != nil, "the tone loaded during the loss plays on a real voice")
            #expect(playing?.int("errors") == 0, "internal AL errors: \(playing?.int("errors") ?? -1)")
            #expect(probe.closeInputAndWait() != nil)
        }
    }
}
