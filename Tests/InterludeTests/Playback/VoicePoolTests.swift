import Foundation
import Testing
@testable import Interlude

extension EngineSuites {
    /// The voice pool: thousands of logical voices on a budget of real sources.
    @Suite struct VoicePoolTests {
        /// 2,000 looping emitters on a line in front of the listener, one every 0.1 units.
        private func emitters(_ engine: SoundEngine, count: Int = 2_000) throws -> [VoiceHandle] {
            let tone = try VoicePoolFixture.tone(engine, frequencyHz: 440)
            return try (0..<count).map { index in
                try engine.play(tone, parameters: VoiceParameters(position: Vector3(0, 0, -1 - Float(index) * 0.1), isLooping: true))
            }
        }

        @Test func theBudgetHoldsTheMostAudibleVoices() throws {
            let engine = try VoicePoolFixture.engine(budget: 64)
            defer { engine.shutdown() }
            let voices = try emitters(engine)
            _ = try engine.render(frameCount: 960)
            let statistics = engine.statistics
            #expect(statistics.voiceCount == 2_000)
            #expect(statistics.realVoiceCount == 64)
            #expect(statistics.alSourceCount == 64)
            // The nearest 64 are the most audible under inverseClamped.
            let real = voices.indices.filter { engine.isReal(voices[$0]) }
            #expect(real == Array(0..<64))
            #expect(statistics.internalErrorCount == 0)
        }

        @Test func movingTheListenerSwapsTheSet() throws {
            let engine = try VoicePoolFixture.engine(budget: 64)
            defer { engine.shutdown() }
            let voices = try emitters(engine)
            _ = try engine.render(frameCount: 960)
            // Walk to the far end of the line: the last emitters are now the nearest.
            try engine.changeListener { $0.position = Vector3(0, 0, -1 - 1_999 * 0.1) }
            _ = try engine.render(frameCount: 960)
            let real = voices.indices.filter { engine.isReal(voices[$0]) }
            #expect(real.count == 64)
            #expect(real.allSatisfy { $0 >= 2_000 - 64 - 1 })
        }

        @Test func aListenerFarFromEveryVoiceStillGetsTheNearest() throws {
            // The update scores only voices above half the last budget's lowest audibility (and
            // the real ones). Far from the whole line, every voice is far below that: the set
            // must still swap to the nearest, which takes scoring them all again.
            let engine = try VoicePoolFixture.engine(budget: 64)
            defer { engine.shutdown() }
            let voices = try emitters(engine)
            _ = try engine.render(frameCount: 960)
            #expect(voices.indices.filter { engine.isReal(voices[$0]) } == Array(0..<64))
            try engine.changeListener { $0.position = Vector3(0, 0, -1 - 1_999 * 0.1 - 1_000) }
            _ = try engine.render(frameCount: 480)
            let real = voices.indices.filter { engine.isReal(voices[$0]) }
            #expect(real == Array((2_000 - 64)..<2_000))
            #expect(engine.statistics.internalErrorCount == 0)
        }

        @Test func aVoiceBackFromVirtualStartsAtTheRightOffset() throws {
            // A sweep f(t) = 200 + 200 t: its frequency tells where in the sound the voice is.
            let engine = try VoicePoolFixture.engine(budget: 1)
            defer { engine.shutdown() }
            let sweep = try VoicePoolFixture.sweep(engine, startHz: 200, slopeHzPerSecond: 200, seconds: 8)
            var loud = VoiceParameters(position: Vector3(0, 0, -1), isLooping: true)
            loud.gain = 1
            let tracked = try engine.play(sweep, parameters: loud)
            _ = try engine.render(frameCount: 48_000)
            #expect(engine.isReal(tracked))
            // A louder, higher-priority voice takes the only source for two seconds.
            var important = VoiceParameters(position: Vector3(0, 0, -1), isLooping: true)
            important.priority = 10
            let intruder = try engine.play(try VoicePoolFixture.tone(engine, frequencyHz: 1_000), parameters: important)
            #expect(!engine.isReal(tracked))
            _ = try engine.render(frameCount: 96_000)
            try engine.stop(intruder)
            _ = try engine.render(frameCount: 480)
            #expect(engine.isReal(tracked))
            // 1 s real, 2 s virtual, 0.01 s real again: the sweep is 3.01 s in, at 200 + 200 t Hz.
            let rendered = try engine.render(frameCount: 4_800)
            let measured = VoicePoolFixture.frequency(rendered, channel: 0, frames: 0..<2_400)
            let position = Double(engine.positionInFrames(of: tracked)!) / 48_000
            #expect(abs(position - 3.11) < 0.005)
            #expect(abs(measured - (200 + 200 * 3.035)) < 5)
        }

        @Test func aProtectedVoiceIsNeverMadeVirtual() throws {
            let engine = try VoicePoolFixture.engine(budget: 8)
            defer { engine.shutdown() }
            let tone = try VoicePoolFixture.tone(engine, frequencyHz: 330)
            var dialogue = VoiceParameters(position: Vector3(0, 0, -500), isLooping: true)
            dialogue.priority = VoiceParameters.protectedPriority
            let protected = try engine.play(tone, parameters: dialogue)
            for index in 0..<100 {
                try engine.play(tone, parameters: VoiceParameters(position: Vector3(0, 0, -1 - Float(index) * 0.01), isLooping: true))
                if index % 10 == 0 { _ = try engine.render(frameCount: 480) }
                #expect(engine.isReal(protected))
            }
        }

        @Test func aOneShotThatEndsWhileVirtualIsReleased() throws {
            let engine = try VoicePoolFixture.engine(budget: 1)
            defer { engine.shutdown() }
            let near = try engine.play(try VoicePoolFixture.tone(engine, frequencyHz: 440, seconds: 2),
                                       parameters: VoiceParameters(position: Vector3(0, 0, -1), isLooping: true))
            let far = try engine.play(try VoicePoolFixture.tone(engine, frequencyHz: 660, seconds: 0.5),
                                      parameters: VoiceParameters(position: Vector3(0, 0, -50)))
            _ = try engine.render(frameCount: 4_800)
            #expect(engine.isReal(near))
            #expect(engine.isPlaying(far) && !engine.isReal(far))
            _ = try engine.render(frameCount: 24_000)
            #expect(!engine.isPlaying(far))
            #expect(engine.positionInFrames(of: far) == nil)
            #expect(engine.statistics.voiceCount == 1)
        }

        @Test func voicesThatStayInTheBudgetKeepTheirSources() throws {
            let engine = try VoicePoolFixture.engine(budget: 16)
            defer { engine.shutdown() }
            let voices = try emitters(engine, count: 200)
            _ = try engine.render(frameCount: 480)
            let before = voices.filter { engine.isReal($0) }
            let sourcesBefore = engine.readCore { core in before.map { core.voiceTable.voice(for: $0)!.source!.name } }
            _ = try engine.render(frameCount: 48_000)
            let sourcesAfter = engine.readCore { core in before.map { core.voiceTable.voice(for: $0)?.source?.name } }
            #expect(sourcesAfter == sourcesBefore.map { Optional($0) })
        }
    }
}
