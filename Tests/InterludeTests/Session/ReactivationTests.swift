import Foundation
import Testing
@testable import Interlude

/// Ending an interruption is only done once the context is current again, and the game cannot
/// begin the engine's own device-loss interruption.
extension EngineSuites {
    @Suite struct ReactivationTests {
        @Test("An end whose context will not go current leaves the session interrupted, silent, and says so; activate then resumes on the frame")
        func failedReactivationKeepsTheSessionInterrupted() throws {
            let rig = try SessionRig()
            defer { ALFaults.disarmAll() }
            try rig.engine.playMusic(path: SessionAssets.sweep)
            try rig.render(seconds: 0.5)
            try rig.engine.beginInterruption(reason: .call)
            let held = try #require(rig.engine.musicPosition())
            _ = rig.takeEvents()

            ALFaults.arm(.makeContextCurrent, count: 1)
            try rig.engine.endInterruption(shouldResume: true)
            let events = rig.takeEvents()
            #expect(events.contains { if case .session(.reactivationFailed) = $0 { true } else { false } })
            #expect(!events.contains { if case .session(.ended) = $0 { true } else { false } })
            #expect(rig.engine.sessionState == .interrupted(reason: .call))
            #expect(SessionRig.noContextIsCurrent)
            let stillInterrupted = try rig.render(seconds: 0.25)
            #expect(rig.isExactlySilent(stillInterrupted))
            #expect(rig.engine.musicPosition() == held)

            try rig.engine.activate()
            #expect(rig.engine.sessionState == .active)
            #expect(rig.engineContextIsCurrent)
            #expect(rig.takeEvents().contains(.music(.resumed(positionInFrames: held))))
            let resumed = try rig.render(seconds: 0.25)
            #expect(rig.rms(resumed) > 0.1)
            #expect(rig.engine.statistics.internalErrorCount == 1)
        }

        @Test("beginInterruption refuses deviceLost: the engine stays active and keeps playing")
        func deviceLostIsNotTheGamesReason() throws {
            let rig = try SessionRig()
            try rig.engine.playMusic(path: SessionAssets.sweep)
            try rig.render(seconds: 0.25)
            let error = try #require(throws: InterludeError.self) { try rig.engine.beginInterruption(reason: .deviceLost) }
            #expect(error.code == .invalidArgument)
            #expect(error.message.contains("beginInterruption") && error.message.contains("deviceLost"))
            #expect(rig.engine.sessionState == .active)
            #expect(rig.takeEvents().isEmpty)
            let after = try rig.render(seconds: 0.5)
            #expect(rig.rms(after) > 0.1)
        }
    }
}
