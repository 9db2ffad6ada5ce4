#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@_spi(Tools) @testable import Interlude

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
            return try startProbe(environment: server.clientEnvironment, extraArguments: extraArguments)
        }

        /// A probe playing the sweep in `environment`, once it has played 1 s.
        static func startProbe(environment: [String: String], extraArguments: [String] = []) throws -> PulseProbeProcess {
            let probe = try PulseProbeProcess(environment: environment,
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

        /// On PipeWire the whole server freezes (PipeWire, WirePlumber and pipewire-pulse), as a
        /// stopped or starved session's audio server does.
        @Test("A server frozen by SIGSTOP for 5 s: the game's calls keep returning, nothing is lost or restarted, and after SIGCONT the player hears the soundtrack go on from the frame it stood at",
              arguments: ServerKind.allCases)
        func frozenServer(_ kind: ServerKind) throws {
            guard let stack = try ServerUnderTest.start(kind, label: "FROZEN-SERVER") else { return }
            let probe = try Self.startProbe(environment: stack.clientEnvironment,
                                            extraArguments: ["--clicks", Self.beepPath, "--click-count", "10", "--click-ms", "100", "--log-debug"])
            defer { probe.kill() }
            guard probe.waitFor("clicksDone", timeoutSeconds: 10) != nil else {
                throw TestFailure("the first clicks did not finish: \(probe.stderrText)")
            }
            // The sink's monitor is recorded across the whole freeze, from after the last click.
            let recording = stack.server.folder.appendingPathComponent("across-freeze.wav")
            let recorder = try stack.server.record(to: recording, device: "spk.monitor")
            var recorderStopped = false
            defer { if !recorderStopped { PrivatePulseServer.stopRecorder(recorder) } }
            Thread.sleep(forTimeInterval: 0.6)
            let frozenPIDs = stack.pids
            try #require(!frozenPIDs.isEmpty, "no server process to freeze")
            let stoppedAt = probe.lineCount
            for pid in frozenPIDs { kill(pid, SIGSTOP) }
            var continued = false
            defer { if !continued { for pid in frozenPIDs { kill(pid, SIGCONT) } } }
            // The game plays ten more sounds while the server is frozen.
            probe.send("clicks")
            // The fault itself lasts 5 s; what is asserted is what happened meanwhile.
            Thread.sleep(forTimeInterval: 5)
            let frozen = probe.allLines[stoppedAt...]
            let continuedAt = probe.lineCount
            for pid in frozenPIDs { kill(pid, SIGCONT) }
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
            let hear = { () throws -> Void in
                let sweep = try SweepRecording(contentsOf: recording)
                let rate = Double(sweep.sampleRate)
                let stretches = sweep.soundStretches(minimumSilenceSeconds: 0.005)
                let heard = stretches.map { String(format: "%.3f-%.3f s", Double($0.lowerBound) / rate, Double($0.upperBound) / rate) }
                // The freeze is the longest silence between two stretches of sound (the recorder
                // stands still while the server is frozen, so the hold is what is left of it). A
                // stretch shorter than 100 ms next to it is a fragment of the sweep the server had
                // mixed before it froze and plays around the freeze: the track went on through it.
                let fragmentFrames = Int(rate * 0.1)
                let gaps = stretches.indices.dropFirst().map { (index: $0, frames: stretches[$0].lowerBound - stretches[$0 - 1].upperBound) }
                let trailingSilence = sweep.samples.count - (stretches.last?.upperBound ?? 0)
                guard let hold = gaps.max(by: { $0.frames < $1.frames }), hold.frames > Int(rate * 0.3), hold.frames > trailingSilence else {
                    Issue.record("the recording across the freeze has no silence with the sweep before and after it: sound at \(heard)")
                    return
                }
                var before = hold.index - 1, after = hold.index, fragmentsFrames = 0
                while before > 0, stretches[before].count < fragmentFrames { fragmentsFrames += stretches[before].count; before -= 1 }
                while after < stretches.count - 1, stretches[after].count < fragmentFrames { fragmentsFrames += stretches[after].count; after += 1 }
                let soundAfter = stretches[after].lowerBound
                // Read 60 ms before the sweep stopped (its last milliseconds may be a few of noise as
                // the server froze), and 375 ms after the silence: past the ten held clicks
                // (250 ms), with the sweep under them.
                guard let stoppedAt = sweep.sweepPosition(at: stretches[before].upperBound - sweep.sampleRate * 60 / 1000).map({ $0 + 0.060 }),
                      let wentOn = sweep.sweepPosition(at: soundAfter + sweep.sampleRate * 375 / 1000) else {
                    Issue.record("no sweep before or after the freeze: sound at \(heard); \(sweep.describe(expectedStartSeconds: 0, soundStart: soundAfter))")
                    return
                }
                let stoodAt = stoppedAt + Double(fragmentsFrames) / rate
                let wentOnFrom = wentOn - 0.375
                let mixerLog = probe.stderrText.split(separator: "\n").filter { $0.contains("mixer") }.joined(separator: "\n")
                let heardSkipSeconds = wentOnFrom - stoodAt
                PulseDeviceLossTests.figure(String(format: "frozen server: %d engine reads and the ten plays completed in the 5 s of SIGSTOP; the sweep stopped at %.3f s and went on from %.3f s (heard skip %.0f ms) after %.2f s of silence",
                                                   frozenTicks.count, stoodAt, wentOnFrom, heardSkipSeconds * 1000,
                                                   Double(hold.frames) / rate))
                // The engine starts the output over when the server caught up only part of the freeze.
                let startedOver = probe.stderrText.contains("the output starts over")
                StackCell.record(kind.route, .sigstop,
                                 String(format: "frozen 5 s: the game's calls kept returning; after SIGCONT the soundtrack went on %.0f ms from where it stood, %@", heardSkipSeconds * 1000,
                                        startedOver ? "the output started over (the server had skipped ahead)" : "nothing restarted"))
                // pipewire-pulse drops what it held when it froze (its buffer then, 119-206 ms
                // measured): the server skips it with the time it stood still, and the engine's
                // sources had mixed it already.
                let allowedSkipSeconds = kind == .pipeWirePulse ? 0.25 : 0.1
                #expect(abs(heardSkipSeconds) < allowedSkipSeconds, "the sweep stopped at \(stoodAt) s and went on from \(wentOnFrom) s: sound at \(heard); \(sweep.describe(expectedStartSeconds: stoodAt, soundStart: soundAfter))\n\(mixerLog)")
                #expect(sweep.rms(from: soundAfter + sweep.sampleRate * 375 / 1000, count: sweep.sampleRate / 10) > 0.2)
            }
            try hear()
            #expect(probe.closeInputAndWait() != nil)
        }

        /// What the sink's monitor recorded across a freeze: the music is paused (so that what
        /// the server holds when it stops is silence), the server frozen by SIGSTOP for 2 s, and
        /// `command` sent to the probe the moment SIGCONT is: the server's catch-up then mixes at
        /// about 200 times real time for some 25 ms, and the engine's hold lasts until it has
        /// caught up. A source started then and paused by the next update would lose seconds of
        /// its sound into that burst, or sound a fragment. The recording ends once `heard` returns.
        static func recordCommandAsServerContinues(_ command: String, server: PrivatePulseServer, probe: PulseProbeProcess,
                                                   heard: (_ pausedAt: Int) throws -> Void) throws -> FreezeRecording {
            let recording = server.folder.appendingPathComponent("\(command)-as-server-continues.wav")
            let recorder = try server.record(to: recording)
            var recorderStopped = false
            defer { if !recorderStopped { PrivatePulseServer.stopRecorder(recorder) } }
            Thread.sleep(forTimeInterval: 0.6)
            probe.send("pause")
            Thread.sleep(forTimeInterval: 1.5)
            let pausedAt = try #require(probe.allLines.last { $0.event == "tick" }?.int("position"))
            let serverPID = try #require(server.pid)
            kill(serverPID, SIGSTOP)
            var continued = false
            defer { if !continued { kill(serverPID, SIGCONT) } }
            // The engine sees the mixer stand still a quarter second in, and holds its sources.
            Thread.sleep(forTimeInterval: 2)
            let continuedAt = probe.lineCount
            kill(serverPID, SIGCONT)
            continued = true
            probe.send(command)
            try heard(pausedAt)
            Thread.sleep(forTimeInterval: 0.5)
            PrivatePulseServer.stopRecorder(recorder)
            recorderStopped = true
            let log = probe.stderrText.split(separator: "\n").filter { $0.contains("mixer") }.joined(separator: "\n")
                + "\nmusic paused at frame \(pausedAt); after SIGCONT the engine read \(Self.positions(probe.allLines[continuedAt...]))"
            return FreezeRecording(sweep: try SweepRecording(contentsOf: recording), log: log)
        }

        /// ``recordCommandAsServerContinues(_:server:probe:heard:)``'s recording, and the probe's
        /// account of the mixer and the positions it read, for a failure message.
        struct FreezeRecording {
            let sweep: SweepRecording
            let log: String
        }

        @Test("Music resumed the moment a frozen server runs again, while its mixer catches up: nothing plays until the hold ends, then the player hears it go on from the frame it was paused at, in one piece")
        func resumeWhileMixerCatchesUp() throws {
            let server = try PrivatePulseServer()
            let probe = try Self.startProbe(server, extraArguments: ["--log-debug"])
            defer { probe.kill() }
            let recorded = try Self.recordCommandAsServerContinues("resume", server: server, probe: probe) { pausedAt in
                try PulseDeviceLossTests.waitForProgress(probe, from: pausedAt, frames: Int(Self.trackRate * 1.0), timeoutSeconds: 10)
            }
            let sweep = recorded.sweep
            // The pause (1.5 s) and the hold: one silence, then the sweep again.
            let gap = try #require(sweep.silence(minimumSeconds: 1), "no silence of 1 s in the recording: \(recorded.log)")
            let soundAfter = try #require(gap.end, "the sweep was not heard again after the pause: \(recorded.log)")
            let stoodAt = try #require(sweep.sweepPosition(at: gap.start - sweep.sampleRate * 60 / 1000)) + 0.060
            let wentOnFrom = sweep.sweepPosition(atSoundStart: soundAfter)
            let heardSkip = wentOnFrom.map { $0 - stoodAt }
            // In one piece: no break of 20 ms or more in the half second after it went on.
            let broken = sweep.silence(after: soundAfter, minimumSeconds: 0.02).map { $0.start < soundAfter + sweep.sampleRate / 2 } ?? false
            PulseDeviceLossTests.figure(String(format: "resumed during the catch-up: the sweep stood at %.3f s and went on from %@ (heard skip %@)%@",
                                               stoodAt, wentOnFrom.map { String(format: "%.3f s", $0) } ?? "nowhere",
                                               heardSkip.map { String(format: "%.0f ms", $0 * 1000) } ?? "none", broken ? ", broken" : ""))
            let heard = sweep.describe(expectedStartSeconds: stoodAt, soundStart: soundAfter)
            #expect(heardSkip.map { abs($0) < 0.03 } ?? false, "the sweep stood at \(stoodAt) s and went on from \(String(describing: wentOnFrom)) s: \(heard)\n\(recorded.log)")
            #expect(!broken, "the sweep broke off within half a second of going on: \(heard)\n\(recorded.log)")
            #expect(probe.closeInputAndWait() != nil)
        }

        @Test("A sound played the moment a frozen server runs again, while its mixer catches up: heard whole once the hold ends, not lost into the catch-up or broken off")
        func playWhileMixerCatchesUp() throws {
            let server = try PrivatePulseServer()
            let probe = try Self.startProbe(server, extraArguments: ["--clicks", Self.beepPath, "--click-count", "1", "--click-ms", "0",
                                                                     "--log-debug"])
            defer { probe.kill() }
            guard let firstClick = probe.waitFor("clicksDone", timeoutSeconds: 10) else {
                throw TestFailure("the first click did not finish: \(probe.stderrText)")
            }
            let recorded = try Self.recordCommandAsServerContinues("clicks", server: server, probe: probe) { _ in
                guard probe.waitFor("clicksDone", from: firstClick.index + 1, timeoutSeconds: 10) != nil else {
                    throw TestFailure("the click did not play: \(probe.stderrText)")
                }
                // The beep is 0.25 s long, and waits for the hold's end (under half a second).
                Thread.sleep(forTimeInterval: 1.5)
            }
            let sweep = recorded.sweep
            // The pause (1.5 s) and the hold: one silence, then the beep (0.25 s of 880 Hz at 0.5,
            // 5 ms fades) and silence again: the music is still paused.
            let gap = try #require(sweep.silence(minimumSeconds: 1), "no silence of 1 s in the recording: \(recorded.log)")
            let beepStart = try #require(gap.end, "the beep was not heard after the pause: \(recorded.log)")
            let beepEnd = sweep.silence(after: beepStart, minimumSeconds: 0.02)?.start ?? sweep.samples.count
            let heardSeconds = Double(beepEnd - beepStart) / Double(sweep.sampleRate)
            let frequency = sweep.frequency(from: beepStart, count: beepEnd - beepStart)
            PulseDeviceLossTests.figure(String(format: "played during the catch-up: a 0.25 s beep heard for %.3f s at %.0f Hz", heardSeconds, frequency ?? 0))
            #expect(heardSeconds > 0.23 && heardSeconds < 0.26, "the beep was heard for \(heardSeconds) s: \(recorded.log)")
            #expect(frequency.map { abs($0 - 880) < 10 } ?? false, "the sound after the pause was at \(String(describing: frequency)) Hz")
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
