import Foundation
import Testing
@testable import Interlude

/// Groups and reverb zones are typed identifiers: a name that was never made is an error naming
/// it, never a new, silent group.
extension EngineSuites {
    @Suite struct GroupIdentityTests {
        @Test("A group made by one engine is unknown to another: play and the group calls refuse it, naming it")
        func unknownGroupIsAnError() throws {
            let maker = try TestEngine.offline()
            defer { maker.shutdown() }
            let footsteps = try maker.makeGroup(named: "footsteps")
            #expect(try maker.makeGroup(named: "footsteps") == footsteps, "makeGroup returns the existing group")
            #expect(maker.group(named: "footsteps") == footsteps)
            #expect(maker.group(named: "footstep") == nil)

            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            let tone = try TestEngine.sine(engine)
            let played = try #require(throws: InterludeError.self) {
                try engine.play(tone, parameters: VoiceParameters(position: nil, isLooping: true, group: footsteps))
            }
            #expect(played.code == .invalidArgument && played.message.contains("footsteps"))
            for call in [{ try engine.setGain(0.5, of: footsteps) }, { try engine.setMuted(true, of: footsteps) },
                         { try engine.pause(footsteps) },
                         { try engine.setDucking(6, of: .music, whilePlaying: footsteps) }] {
                let error = try #require(throws: InterludeError.self) { try call() }
                #expect(error.code == .invalidArgument && error.message.contains("footsteps"))
            }
            #expect(engine.statistics.voiceCount == 0)
            #expect(try engine.render(frameCount: 4_800).allSatisfy { $0 == 0 }, "nothing plays")
        }

        @Test("A made group works like a built-in one: its gain shows in the RMS")
        func madeGroupScalesItsVoices() throws {
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            let footsteps = try engine.makeGroup(named: "footsteps")
            let tone = try TestEngine.sine(engine)
            try engine.play(tone, parameters: VoiceParameters(position: nil, isLooping: true, group: footsteps))
            let full = SignalMeasure.rms(try engine.render(frameCount: 9_600), channel: 0, channelCount: 2)
            try engine.setGain(0.5, of: footsteps)
            let half = SignalMeasure.rms(try engine.render(frameCount: 9_600), channel: 0, channelCount: 2)
            #expect(full > 0.1)
            #expect(abs(half / full - 0.5) < 0.02)
        }

        @Test("A reverb zone that was never added is refused, naming it")
        func unknownReverbZoneIsAnError() throws {
            let other = try TestEngine.offline()
            defer { other.shutdown() }
            let hall = try other.makeReverbZone(named: "hall", preset: .hall)
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            var parameters = VoiceParameters(position: Vector3(1, 0, 0), isLooping: true)
            parameters.reverbZone = hall
            let error = try #require(throws: InterludeError.self) { try engine.play(try TestEngine.sine(engine), parameters: parameters) }
            #expect(error.code == .invalidArgument && error.message.contains("hall"))
            let grouped = try #require(throws: InterludeError.self) { try engine.setReverbZone(hall, of: .sfx) }
            #expect(grouped.code == .invalidArgument && grouped.message.contains("hall"))
        }
    }
}
