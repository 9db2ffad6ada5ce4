import Foundation
import Testing
@testable import Interlude

/// logind's sleep and session-switch sources against a real D-Bus daemon: a private bus set up
/// like the system bus, and LogindStub owning org.freedesktop.login1 on it. The engine renders
/// offline (the sources turned on explicitly; offline they are off by default) and reaches the
/// bus through ``SoundEngine/Configuration/LogindSources/systemBusAddress``, so the test's own
/// environment is left alone. What is asserted is what is heard, and what the stand-in logind saw
/// of our inhibitor lock.
extension EngineSuites {
    @Suite(.enabled(if: PrivateSystemBus.isInstalled, "dbus-daemon is not installed (scripts/install-deps.sh)"))
    struct LogindSourceTests {
        /// Generous: the watcher reacts on its own thread, and the machine may be loaded.
        static let deadlineSeconds = 30.0

        /// Polls `condition` until it holds or the deadline passes.
        static func eventually(_ condition: () -> Bool) -> Bool {
            let deadline = ContinuousClock.now + .seconds(deadlineSeconds)
            while !condition() {
                if ContinuousClock.now >= deadline { return false }
                Thread.sleep(forTimeInterval: 0.005)
            }
            return true
        }

        /// The rig's events from now until one passes `condition` (the watcher's thread delivers
        /// them just after the engine lock is released, so a state read may come first).
        static func events(of rig: SessionRig, until condition: (EngineEvent) -> Bool) -> [EngineEvent] {
            var events: [EngineEvent] = []
            _ = eventually {
                events += rig.takeEvents()
                return events.contains(where: condition)
            }
            return events
        }

        static func isSuspension(_ event: EngineEvent) -> Bool {
            if case .music(.suspended) = event { true } else { false }
        }

        static func isResumption(_ event: EngineEvent) -> Bool {
            if case .music(.resumed) = event { true } else { false }
        }

        static func suspendedPosition(_ events: [EngineEvent]) -> Int? {
            for case .music(.suspended(let position)) in events { return position }
            return nil
        }

        /// After a wake: audible from the first frame rendered, at the sweep's level, and resumed on
        /// the frame it was suspended at.
        static func expectResumed(_ rig: SessionRig, at suspended: Int) throws {
            let after = try rig.render(seconds: 0.3)
            #expect(rig.firstNonZeroFrame(in: after) == after.lowerBound + OpenALStack.firstAudibleFrameAfterResume, "audible from the first frame")
            #expect(rig.rms(after) > 0.2)
            #expect(resumedPosition(events(of: rig, until: isResumption)) == suspended, "resumes on the frame it stopped")
        }

        static func resumedPosition(_ events: [EngineEvent]) -> Int? {
            for case .music(.resumed(let position)) in events { return position }
            return nil
        }

        @Test("PrepareForSleep: the delay lock is held while running, released once the state is saved; exactly silent while asleep; resumes on its frame after the wake")
        func sleepAndWake() throws {
            let folder = try ScratchFolder(prefix: "interlude-logind")
            let statePath = folder.path("state.json")
            let logind = try LogindRig(sleep: true, session: false, statePath: statePath)
            defer { logind.shutdown() }
            let rig = logind.session, stub = try logind.stub()
            let taken = try #require(stub.waitFor("inhibit-taken", timeoutSeconds: Self.deadlineSeconds))
            #expect(taken.line == "inhibit-taken 1 sleep delay", "a delay lock on sleep, taken while running")
            #expect(rig.rms(try rig.render(seconds: 0.5)) > 0.2)
            _ = rig.takeEvents()

            stub.send("sleep")
            let released = try #require(stub.waitFor("inhibit-released 1", timeoutSeconds: Self.deadlineSeconds),
                                        "the lock is released once the state is saved")
            // Released only after the begin returned: the session is held and the snapshot is on disk.
            #expect(rig.engine.interruptionHolders == [.sleep])
            #expect(rig.engine.sessionState == .interrupted(reason: .systemSleep))
            let suspended = try #require(Self.suspendedPosition(Self.events(of: rig, until: Self.isSuspension)))
            let saved = try SavedState.read(from: statePath)
            #expect(saved.tracks.first?.positionInFrames == suspended, "the snapshot holds the frame the soundtrack stopped on")
            if let microseconds = Int(released.line.split(separator: " ").last ?? "") {
                print("logind: PrepareForSleep(true) -> inhibitor released: \(Double(microseconds) / 1000) ms")
            }
            #expect(rig.isExactlySilent(try rig.render(seconds: 1.0)), "exactly silent while asleep")

            stub.send("wake")
            #expect(Self.eventually { rig.engine.sessionState == .active }, "the wake ends the interruption")
            let after = try rig.render(seconds: 0.5)
            #expect(rig.firstNonZeroFrame(in: after) == after.lowerBound + OpenALStack.firstAudibleFrameAfterResume, "audible from the first frame after the wake")
            #expect(rig.rms(after) > 0.2)
            #expect(Self.resumedPosition(Self.events(of: rig, until: Self.isResumption)) == suspended, "resumes on the frame it stopped")
            #expect(abs(rig.sweepSeconds(at: after) - Double(suspended) / Double(SessionAssets.sweepSampleRate)) < 0.005)
            let retaken = stub.waitFor("inhibit-taken 2", timeoutSeconds: Self.deadlineSeconds)
            #expect(retaken?.line == "inhibit-taken 2 sleep delay", "a new lock after the wake")
        }

        @Test("Our session going inactive interrupts (sessionInactive), and active again resumes on the frame it stopped")
        func sessionSwitch() throws {
            let logind = try LogindRig(sleep: false, session: true)
            defer { logind.shutdown() }
            let rig = logind.session, stub = try logind.stub()
            #expect(stub.waitFor("session-asked", timeoutSeconds: 1) != nil, "the session is looked up by our PID")
            #expect(stub.waitFor("active-read", timeoutSeconds: 1) != nil, "its Active property is read at start")
            #expect(!stub.allLines.contains { $0.hasPrefix("inhibit-taken") }, "the sleep source is off: no lock")
            #expect(rig.rms(try rig.render(seconds: 0.4)) > 0.2)
            _ = rig.takeEvents()

            stub.send("inactive")
            #expect(Self.eventually { rig.engine.interruptionHolders == [.sessionSwitch] })
            #expect(rig.engine.sessionState == .interrupted(reason: .sessionInactive))
            let events = Self.events(of: rig, until: Self.isSuspension)
            #expect(events.contains(.session(.began(reason: .sessionInactive, source: .sessionSwitch))))
            let suspended = try #require(Self.suspendedPosition(events))
            #expect(rig.isExactlySilent(try rig.render(seconds: 0.6)))

            stub.send("active")
            #expect(Self.eventually { rig.engine.sessionState == .active })
            let after = try rig.render(seconds: 0.4)
            #expect(rig.firstNonZeroFrame(in: after) == after.lowerBound + OpenALStack.firstAudibleFrameAfterResume)
            let resumed = Self.events(of: rig, until: Self.isResumption)
            #expect(resumed.contains { if case .session(.ended(true, _, .sessionSwitch)) = $0 { true } else { false } })
            #expect(Self.resumedPosition(resumed) == suspended)
        }

        @Test("activate() keeps the session-switch hold while our session is inactive; Active true then resumes on the frame")
        func activateKeepsSessionHold() throws {
            let logind = try LogindRig(sleep: false, session: true)
            defer { logind.shutdown() }
            let rig = logind.session, stub = try logind.stub()
            try rig.render(seconds: 0.3)
            _ = rig.takeEvents()
            stub.send("inactive")
            let suspended = try #require(Self.suspendedPosition(Self.events(of: rig, until: Self.isSuspension)))
            try rig.engine.activate()
            #expect(rig.takeEvents().contains(.session(.holdKept(source: .sessionSwitch))), "activate reports the kept hold")
            #expect(rig.engine.interruptionHolders == [.sessionSwitch])
            #expect(rig.isExactlySilent(try rig.render(seconds: 0.4)), "still silent: the session is still inactive")
            stub.send("active")
            #expect(Self.eventually { rig.engine.sessionState == .active })
            let after = try rig.render(seconds: 0.3)
            #expect(rig.firstNonZeroFrame(in: after) == after.lowerBound + OpenALStack.firstAudibleFrameAfterResume)
            #expect(Self.resumedPosition(Self.events(of: rig, until: Self.isResumption)) == suspended)
        }

        @Test("A session switch during sleep: silent until both let go")
        func sleepAndSessionOverlap() throws {
            let logind = try LogindRig(sleep: true, session: true)
            defer { logind.shutdown() }
            let rig = logind.session, stub = try logind.stub()
            try rig.render(seconds: 0.3)
            stub.send("sleep")
            #expect(Self.eventually { rig.engine.interruptionHolders == [.sleep] })
            stub.send("inactive")
            #expect(Self.eventually { rig.engine.interruptionHolders == [.sleep, .sessionSwitch] })
            stub.send("wake")
            #expect(Self.eventually { rig.engine.interruptionHolders == [.sessionSwitch] })
            #expect(rig.isExactlySilent(try rig.render(seconds: 0.5)), "awake, but our session is not the active one")
            stub.send("active")
            #expect(Self.eventually { rig.engine.sessionState == .active })
            #expect(rig.rms(try rig.render(seconds: 0.3)) > 0.2)
        }

        @Test("No system bus: the engine plays on, the sources say why, nothing is interrupted")
        func noSystemBus() throws {
            let folder = try ScratchFolder(prefix: "interlude-nobus")
            let rig = try SessionRig {
                $0.logind = .init(watchesSleep: true, watchesSessionSwitch: true, systemBusAddress: "unix:path=\(folder.path("none"))")
            }
            defer { rig.engine.shutdown() }
            try rig.engine.playMusic(path: SessionAssets.sweep)
            #expect(Self.eventually {
                if case .unavailable = rig.engine.logindStatus { true } else { false }
            })
            #expect(rig.rms(try rig.render(seconds: 0.3)) > 0.2)
            #expect(rig.engine.interruptionHolders.isEmpty)
        }

        @Test("A bus without logind: the engine plays on and watches; when logind appears, its sleep signal interrupts")
        func busWithoutLogind() throws {
            // Watching: no lock and no session, but subscribed.
            let logind = try LogindRig(sleep: true, session: true, startsLogind: false)
            defer { logind.shutdown() }
            let rig = logind.session
            #expect(rig.rms(try rig.render(seconds: 0.3)) > 0.2)
            #expect(rig.engine.interruptionHolders.isEmpty)
            let stub = try logind.startLogind()
            stub.send("sleep")
            #expect(Self.eventually { rig.engine.interruptionHolders == [.sleep] })
            #expect(rig.isExactlySilent(try rig.render(seconds: 0.3)))
            stub.send("wake")
            #expect(Self.eventually { rig.engine.sessionState == .active })
            #expect(stub.waitFor("inhibit-taken", timeoutSeconds: Self.deadlineSeconds) != nil, "the lock is taken after the wake")
        }

        @Test("Offline engines leave the sources off by default; an empty bus address is refused")
        func defaultsAndBadInput() throws {
            let offline = try TestEngine.offline()
            defer { offline.shutdown() }
            #expect(offline.logindStatus == nil)
            #expect(throws: InterludeError.self) {
                _ = try TestEngine.offline { $0.logind.systemBusAddress = "" }
            }
        }

        @Test("The bus dies mid-run: the engine plays on, and the sources come back with the bus")
        func busDiesAndReturns() throws {
            let logind = try LogindRig(sleep: true, session: true)
            defer { logind.shutdown() }
            let rig = logind.session, stub = try logind.stub()
            #expect(stub.waitFor("inhibit-taken 1", timeoutSeconds: Self.deadlineSeconds) != nil)

            logind.killBus()
            #expect(Self.eventually { rig.engine.logindStatus != .watching }, "the loss is noticed")
            #expect(rig.rms(try rig.render(seconds: 0.3)) > 0.2, "playing on")
            #expect(rig.engine.interruptionHolders.isEmpty)

            let restarted = try logind.restartBus()
            #expect(Self.eventually { rig.engine.logindStatus == .watching }, "reconnected")
            #expect(restarted.waitFor("inhibit-taken", timeoutSeconds: Self.deadlineSeconds) != nil, "the lock is taken again")
            restarted.send("sleep")
            #expect(Self.eventually { rig.engine.interruptionHolders == [.sleep] })
            restarted.send("wake")
            #expect(Self.eventually { rig.engine.sessionState == .active })
        }

        @Test("The bus is away across the wake: back on the bus, PreparingForSleep says the machine is awake, and the soundtrack resumes on its frame")
        func wakeMissedWhileTheBusWasAway() throws {
            let logind = try LogindRig(sleep: true, session: false)
            defer { logind.shutdown() }
            let rig = logind.session, stub = try logind.stub()
            try rig.render(seconds: 0.3)
            _ = rig.takeEvents()
            stub.send("sleep")
            #expect(Self.eventually { rig.engine.interruptionHolders == [.sleep] })
            let suspended = try #require(Self.suspendedPosition(Self.events(of: rig, until: Self.isSuspension)))

            // The bus goes away, and the machine wakes meanwhile: its PrepareForSleep(false) is lost.
            logind.killBus()
            #expect(Self.eventually { rig.engine.logindStatus != .watching }, "the loss is noticed")
            #expect(rig.isExactlySilent(try rig.render(seconds: 0.3)), "still held for the sleep")
            let restarted = try logind.restartBus()
            #expect(Self.eventually { rig.engine.sessionState == .active }, "the wake missed while away ends the sleep hold")
            #expect(restarted.waitFor("preparing-read", timeoutSeconds: Self.deadlineSeconds) != nil, "PreparingForSleep is read")
            try Self.expectResumed(rig, at: suspended)
            #expect(restarted.waitFor("inhibit-taken", timeoutSeconds: Self.deadlineSeconds) != nil, "a lock for the next sleep")
        }

        @Test("The machine starts going to sleep while the bus is away: back on the bus, PreparingForSleep interrupts, and the wake resumes")
        func sleepMissedWhileTheBusWasAway() throws {
            let logind = try LogindRig(sleep: true, session: false)
            defer { logind.shutdown() }
            let rig = logind.session, stub = try logind.stub()
            #expect(stub.waitFor("inhibit-taken 1", timeoutSeconds: Self.deadlineSeconds) != nil)
            try rig.render(seconds: 0.3)

            logind.killBus()
            #expect(Self.eventually { rig.engine.logindStatus != .watching }, "the loss is noticed")
            #expect(rig.rms(try rig.render(seconds: 0.3)) > 0.2, "playing on while the bus is away")
            #expect(rig.engine.interruptionHolders.isEmpty)
            _ = rig.takeEvents()
            // The PrepareForSleep(true) went out while the engine was away from the bus.
            let restarted = try logind.restartBus(preparingForSleep: true)
            #expect(Self.eventually { rig.engine.interruptionHolders == [.sleep] }, "PreparingForSleep true interrupts")
            #expect(rig.engine.sessionState == .interrupted(reason: .systemSleep))
            let suspended = try #require(Self.suspendedPosition(Self.events(of: rig, until: Self.isSuspension)))
            #expect(rig.isExactlySilent(try rig.render(seconds: 0.5)), "exactly silent while asleep")
            #expect(!restarted.allLines.contains { $0.hasPrefix("inhibit-taken") }, "no lock is taken while the machine goes to sleep")

            restarted.send("wake")
            #expect(Self.eventually { rig.engine.sessionState == .active })
            try Self.expectResumed(rig, at: suspended)
            #expect(restarted.waitFor("inhibit-taken", timeoutSeconds: Self.deadlineSeconds) != nil, "a lock again after the wake")
        }

        @Test("PrepareForSleep(false) never comes: silent until activate(), which ends the sleep hold and resumes on its frame")
        func wakeNeverComes() throws {
            let logind = try LogindRig(sleep: true, session: false)
            defer { logind.shutdown() }
            let rig = logind.session, stub = try logind.stub()
            try rig.render(seconds: 0.4)
            _ = rig.takeEvents()
            stub.send("sleep")
            #expect(Self.eventually { rig.engine.interruptionHolders == [.sleep] })
            let suspended = try #require(Self.suspendedPosition(Self.events(of: rig, until: Self.isSuspension)))
            // logind goes away before the wake: the signal is lost.
            stub.stop()
            #expect(rig.isExactlySilent(try rig.render(seconds: 0.5)))
            #expect(rig.engine.interruptionHolders == [.sleep])

            try rig.engine.activate()
            #expect(rig.engine.sessionState == .active)
            let after = try rig.render(seconds: 0.3)
            #expect(rig.firstNonZeroFrame(in: after) == after.lowerBound + OpenALStack.firstAudibleFrameAfterResume)
            #expect(Self.resumedPosition(rig.takeEvents()) == suspended)
        }
    }
}
