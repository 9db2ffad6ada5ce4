#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import Interlude

extension EngineSuites {
    /// Faults of a live audio server and of the process, through the PulseProbe child on a real
    /// private PulseAudio server: the server frozen by SIGSTOP (not dead: its socket stays open)
    /// for 5 s, and job-control and termination signals landing while the engine rebuilds its
    /// device.
    @Suite struct PulseFaultTests {
        static let trackRate = PulseDeviceLossTests.trackRate
        static let beepPath = PulseProbeProcess.repository.appendingPathComponent("assets/sfx/beep.wav").path

        /// A server and a probe playing the sweep, with `extraArguments`.
        static func startProbe(_ server: PrivatePulseServer, extraArguments: [String] = []) throws -> PulseProbeProcess {
            guard PrivatePulseServer.isInstalled else {
                throw TestFailure("pulseaudio / pulseaudio-utils are not installed (scripts/install-deps.sh installs them)")
            }
            try server.start()
            let probe = try PulseProbeProcess(environment: server.clientEnvironment,
                                              arguments: ["--music", PulseProbeProcess.sweepPath, "--seconds", "90",
                                                          "--tick-ms", "50"] + extraArguments)
            guard probe.waitFor("opened") != nil else {
                throw TestFailure("the probe did not open the device: \(probe.allLines.map(\.fields)) \(probe.stderrText)")
            }
            try PulseDeviceLossTests.waitForProgress(probe, from: 0, frames: Int(trackRate * 1.0), timeoutSeconds: 10)
            return probe
        }

        /// The music positions of the ticks in `lines`.
        static func positions(_ lines: ArraySlice<ProbeLine>) -> [Int] {
            lines.filter { $0.event == "tick" }.compactMap { $0.int("position") }
        }

        @Test("A server frozen by SIGSTOP for 5 s: the game's calls keep returning, nothing is lost or restarted, and after SIGCONT the player hears the soundtrack go on from the frame it stood at")
        func frozenServer() throws {
            let server = try PrivatePulseServer()
            let probe = try Self.startProbe(server, extraArguments: ["--clicks", Self.beepPath, "--click-count", "10", "--click-ms", "100",
                                                                     "--log-debug"])
            defer { probe.kill() }
            guard probe.waitFor("clicksDone", timeoutSeconds: 10) != nil else {
                throw TestFailure("the first clicks did not finish: \(probe.stderrText)")
            }
            // The sink's monitor is recorded across the whole freeze, from after the last click.
            let recording = server.folder.appendingPathComponent("across-freeze.wav")
            let recorder = try server.record(to: recording)
            var recorderStopped = false
            defer { if !recorderStopped { PrivatePulseServer.stopRecorder(recorder) } }
            Thread.sleep(forTimeInterval: 0.6)
            let serverPID = try #require(server.pid)
            let stoppedAt = probe.lineCount
            kill(serverPID, SIGSTOP)
            var continued = false
            defer { if !continued { kill(serverPID, SIGCONT) } }
            // The game plays ten more sounds while the server is frozen.
            probe.send("clicks")
            // The fault itself lasts 5 s; what is asserted is what happened meanwhile.
            Thread.sleep(forTimeInterval: 5)
            let frozen = probe.allLines[stoppedAt...]
            let continuedAt = probe.lineCount
            kill(serverPID, SIGCONT)
            continued = true

            // The probe's main loop reads the engine (statistics, position, state) every 50 ms:
            // a call stuck behind the frozen server would stop the ticks. 100 are due; a loaded
            // machine delays some, a blocked engine would give none.
            let frozenTicks = frozen.filter { $0.event == "tick" }
            #expect(frozenTicks.count >= 20, "only \(frozenTicks.count) engine reads completed in the 5 s the server was stopped")
            #expect(frozen.contains { $0.event == "clicksDone" }, "the ten plays did not complete while the server was stopped")
            let unwanted = ["servicesLost", "began", "clicksFailed", "holdAdded"]
            #expect(!frozen.contains { unwanted.contains($0.event) }, "\(frozen.map(\.fields))")
            #expect(frozenTicks.allSatisfy { $0.string("state") == "active" })
            let lastFrozen = try #require(Self.positions(frozen).last)

            // After SIGCONT the soundtrack moves on: no restart, no device loss.
            try PulseDeviceLossTests.waitForProgress(probe, from: lastFrozen, frames: Int(Self.trackRate * 0.5), timeoutSeconds: 10)
            let after = probe.allLines[continuedAt...]
            let all = Self.positions(probe.allLines[stoppedAt...])
            #expect(zip(all, all.dropFirst()).allSatisfy { $0 <= $1 }, "the position went backwards: \(all)")
            #expect(!after.contains { unwanted.contains($0.event) }, "\(after.map(\.fields))")

            // What the player hears: the sweep (200 Hz + 100 Hz per second of track) stops at the
            // freeze and, after the silence, goes on from where it stood. Without the engine's
            // hold, the server's catch-up after SIGCONT swallowed 0.65-1.6 s of it.
            let recordFrom = probe.allLines.last { $0.event == "tick" }?.int("position") ?? lastFrozen
            try PulseDeviceLossTests.waitForProgress(probe, from: recordFrom, frames: Int(Self.trackRate * 1.0), timeoutSeconds: 10)
            // What the probe reads is ahead of what the monitor has recorded by the server's buffer.
            Thread.sleep(forTimeInterval: 0.5)
            PrivatePulseServer.stopRecorder(recorder)
            recorderStopped = true
            let sweep = try SweepRecording(contentsOf: recording)
            // Read 60 ms before the silence, and 375 ms after it (past the ten held clicks, 250 ms).
            let gap = sweep.silence(minimumSeconds: 1)
            var soundAfter = gap?.end
            var stoodAt = gap.flatMap { sweep.sweepPosition(at: $0.start - sweep.sampleRate * 60 / 1000) }.map { $0 + 0.060 }
            // On SIGCONT the server may first play the little it held when it froze (the sweep
            // going on, mixed before the freeze), then nothing until the engine's hold ends: the
            // sweep then goes on after that fragment, which counts as heard.
            if let fragmentStart = soundAfter, sweep.sweepPosition(at: fragmentStart + sweep.sampleRate * 375 / 1000) == nil,
               let pause = sweep.silence(after: fragmentStart, minimumSeconds: 0.1), let resumed = pause.end {
                stoodAt = stoodAt.map { $0 + Double(pause.start - fragmentStart) / Double(sweep.sampleRate) }
                soundAfter = resumed
            }
            let wentOnFrom = soundAfter.flatMap { sweep.sweepPosition(at: $0 + sweep.sampleRate * 375 / 1000) }.map { $0 - 0.375 }
            let mixerLog = probe.stderrText.split(separator: "\n").filter { $0.contains("mixer") }.joined(separator: "\n")
            guard let gap, let soundAfter, let stoodAt, let wentOnFrom else {
                Issue.record("the recording across the freeze (\(sweep.samples.count) samples) has no silence with the sweep before and after it: silence \(String(describing: gap)), sweep at \(String(describing: stoodAt)) and \(String(describing: wentOnFrom)) s: \(sweep.describe(expectedStartSeconds: stoodAt ?? 0, soundStart: soundAfter ?? 0))\n\(mixerLog)")
                return
            }
            let heardSkipSeconds = wentOnFrom - stoodAt
            PulseDeviceLossTests.figure(String(format: "frozen server: %d engine reads and the ten plays completed in the 5 s of SIGSTOP; the sweep stopped at %.3f s and went on from %.3f s (heard skip %.0f ms) after %.2f s of silence",
                                               frozenTicks.count, stoodAt, wentOnFrom, heardSkipSeconds * 1000,
                                               Double((soundAfter - gap.start)) / Double(sweep.sampleRate)))
            #expect(abs(heardSkipSeconds) < 0.1, "the sweep stopped at \(stoodAt) s and went on from \(wentOnFrom) s: \(sweep.describe(expectedStartSeconds: stoodAt, soundStart: soundAfter))\n\(mixerLog)")
            #expect(sweep.rms(from: soundAfter + sweep.sampleRate * 375 / 1000, count: sweep.sampleRate / 10) > 0.2)
            #expect(probe.closeInputAndWait() != nil)
        }

        @Test("The device open failing 3 times after a loss: the engine's own retries back off, then rebuild, and the soundtrack resumes on the frame it was lost at")
        func reopenFailsThenRebuilds() throws {
            let server = try PrivatePulseServer()
            let probe = try Self.startProbe(server)
            defer { probe.kill() }
            let failingOpens = 3
            let before = try #require(probe.allLines.last { $0.event == "tick" }?.int("reopenAttempts"))
            let requested = probe.lineCount
            let lostAt = ContinuousClock.now
            probe.send("lose-failing-opens \(failingOpens)")
            guard let suspended = probe.waitFor("musicSuspended", from: requested, timeoutSeconds: 5)?.line.int("frame") else {
                throw TestFailure("no musicSuspended at the loss: \(probe.allLines[requested...].map(\.fields))")
            }
            guard let reset = probe.waitFor("servicesReset", from: requested, timeoutSeconds: 15) else {
                throw TestFailure("the device was not rebuilt: \(probe.allLines[requested...].map(\.fields))")
            }
            let elapsedSeconds = PulseDeviceLossTests.milliseconds(reset.line.receivedAt - lostAt) / 1000
            let resumed = try #require(probe.waitFor("musicResumed", from: requested, timeoutSeconds: 2)?.line.int("frame"))
            #expect(resumed == suspended, "resumed at \(resumed), lost at \(suspended)")
            let tick = try PulseDeviceLossTests.waitForProgress(probe, from: resumed, frames: Int(Self.trackRate * 0.5), timeoutSeconds: 10)
            let attempts = (tick.int("reopenAttempts") ?? 0) - before
            // Three failures and the open that worked, and no more than the backoff allows.
            #expect(attempts >= failingOpens + 1, "\(attempts) reopen tries")
            #expect(attempts <= PulseDeviceLossTests.mostReopenAttempts(withinSeconds: elapsedSeconds) + 1,
                    "\(attempts) reopen tries in \(elapsedSeconds) s: more than the backoff allows")
            #expect(tick.int("errors") == 0)
            PulseDeviceLossTests.figure(String(format: "3 failing opens: %d reopen tries, rebuilt %.2f s after the loss", attempts, elapsedSeconds))
            #expect(probe.closeInputAndWait() != nil)
        }

        /// Plays, asks for a rebuild (disconnectDevice, then reconnectDevice, which waits for the
        /// new output to run) and returns once the loss is reported: the rebuild is under way.
        /// Returns the index of the probe's first line since the request.
        static func rebuildUnderWay(_ probe: PulseProbeProcess) throws -> Int {
            let from = probe.lineCount
            probe.send("rebuild")
            guard probe.waitFor("servicesLost", from: from, timeoutSeconds: 5) != nil else {
                throw TestFailure("the rebuild did not begin: \(probe.allLines[from...].map(\.fields))")
            }
            return from
        }

        @Test("SIGTERM while the engine rebuilds its device: the process shuts down and exits 0")
        func terminateDuringRebuild() throws {
            let server = try PrivatePulseServer()
            let probe = try Self.startProbe(server)
            defer { probe.kill() }
            let requested = try Self.rebuildUnderWay(probe)
            #expect(probe.terminateAndWait(timeoutSeconds: 10) != nil, "the probe did not exit after SIGTERM")
            let said = probe.allLines[requested...].filter { $0.event != "tick" }.map(\.fields)
            #expect(probe.exitStatus == 0, "wait status \(probe.exitStatus.map(String.init) ?? "none"); said \(said); stderr \(probe.stderrText)")
            let shutdown = probe.waitFor("shutdown", from: requested, timeoutSeconds: 2)
            #expect(shutdown?.line.string("why") == "SIGTERM", "said \(said)")
        }

        @Test("SIGTSTP while the engine rebuilds its device: the process stops; SIGCONT resumes the soundtrack on the frame it was held at")
        func stopAndContinueDuringRebuild() throws {
            let server = try PrivatePulseServer()
            let probe = try Self.startProbe(server, extraArguments: ["--job-control"])
            defer { probe.kill() }
            let requested = try Self.rebuildUnderWay(probe)
            #expect(JobControlTests.stopWithSIGTSTP(probe.pid), "the probe did not stop after SIGTSTP")
            kill(probe.pid, SIGCONT)

            // Back: the rebuild finished, job control's hold ended, and the soundtrack moves.
            guard probe.waitFor("rebuilt", from: requested, timeoutSeconds: 15) != nil else {
                throw TestFailure("the rebuild did not finish: \(probe.allLines[requested...].map(\.fields))")
            }
            // The rebuild runs off the engine lock, so job control's hold may come while the lost
            // device still holds (its end is then a release) or after the rebuild (an end).
            let deadline2 = ContinuousClock.now + .seconds(15)
            func jobControlLetGo() -> Bool {
                probe.allLines[requested...].contains { ($0.event == "ended" || $0.event == "holdReleased") && $0.string("source") == "jobControl" }
            }
            while !jobControlLetGo() && ContinuousClock.now < deadline2 { Thread.sleep(forTimeInterval: 0.01) }
            guard jobControlLetGo() else {
                throw TestFailure("job control's interruption did not end after SIGCONT: \(probe.allLines[requested...].map(\.fields))")
            }
            let events = probe.allLines[requested...]
            // Each resume is on the frame the last hold recorded.
            var heldFrame: Int?
            for line in events {
                if line.event == "musicSuspended" { heldFrame = line.int("frame") }
                if line.event == "musicResumed" {
                    #expect(heldFrame != nil && line.int("frame") == heldFrame, "resumed at \(line.int("frame") ?? -1), held at \(heldFrame ?? -1)")
                }
            }
            let resumed = try #require(events.last { $0.event == "musicResumed" }?.int("frame"))
            try PulseDeviceLossTests.waitForProgress(probe, from: resumed, frames: Int(Self.trackRate * 0.5), timeoutSeconds: 10)
            #expect(!events.contains { $0.event == "rebuildFailed" })
            #expect(probe.closeInputAndWait(timeoutSeconds: 10) != nil)
            #expect(probe.exitStatus == 0, "wait status \(probe.exitStatus.map(String.init) ?? "none"): \(probe.stderrText)")
        }
    }
}
