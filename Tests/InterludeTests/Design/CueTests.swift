import Foundation
import Synchronization
import Testing
@testable import Interlude

/// The design events an engine raised, gathered from its handler.
final class DesignEventLog: Sendable {
    private let events = Mutex<[DesignEvent]>([])

    init(_ engine: SoundEngine) {
        engine.setEventHandler { [self] event in
            if case .design(let design) = event { events.withLock { $0.append(design) } }
        }
    }

    var all: [DesignEvent] { events.withLock { $0 } }

    /// The cue plays, in order: (variant index, gain, pitch).
    var plays: [(variant: Int, gain: Float, pitch: Float)] {
        all.compactMap { event in
            if case .cuePlayed(_, _, let variant, let gain, let pitch) = event { return (variant, gain, pitch) }
            return nil
        }
    }

    var drops: [CueDropReason] {
        all.compactMap { event in
            if case .cueDropped(_, let reason) = event { return reason }
            return nil
        }
    }
}

extension EngineSuites {
    /// Cues: which variant sounds, what a play draws, the orders, limits and the seed, heard
    /// in offline renders.
    @Suite struct CueTests {
        static let frequencies: [Double] = [300, 500, 800]
        static let rate = TestEngine.sampleRate

        private func variants(_ engine: SoundEngine, frameCount: Int = 9_600) throws -> [Sound] {
            try Self.frequencies.map { try TestEngine.sine(engine, frequency: $0, frameCount: frameCount) }
        }

        private func frequency(_ samples: [Float]) -> Double {
            SignalMeasure.zeroCrossingFrequency(samples, channel: 0, channelCount: 2, sampleRate: Self.rate, frames: 480..<9_000)
        }

        @Test func eachPlaySoundsTheVariantItsEventNames() throws {
            let engine = try TestEngine.offline { $0.seed = 11 }
            let log = DesignEventLog(engine)
            let cue = try engine.makeCue(named: "tone", CueDefinition(variants: try variants(engine)))
            var heard: [Double] = []
            for _ in 0..<6 {
                try engine.play(cue: cue)
                heard.append(frequency(try engine.render(frameCount: 9_600)))
            }
            let plays = log.plays
            #expect(plays.count == 6)
            for (play, frequency) in zip(plays, heard) {
                #expect(abs(frequency - Self.frequencies[play.variant]) < 3, "variant \(play.variant) heard at \(frequency) Hz")
            }
            // randomNoRepeat, the default: never the same variant twice running.
            for index in 1..<plays.count { #expect(plays[index].variant != plays[index - 1].variant) }
        }

        @Test func theDrawnGainAndPitchAreWhatIsHeard() throws {
            let engine = try TestEngine.offline { $0.seed = 3 }
            let log = DesignEventLog(engine)
            let tone = try TestEngine.sine(engine, frequency: 400, frameCount: 9_600)
            try engine.play(tone)
            let reference = SignalMeasure.rms(try engine.render(frameCount: 9_600), channel: 0, channelCount: 2, frames: 480..<4_000)
            var definition = CueDefinition(variants: [tone])
            definition.gainRange = 0.2...0.9
            definition.pitchRange = 0.5...1.5
            let cue = try engine.makeCue(named: "varied", definition)
            for _ in 0..<4 {
                try engine.play(cue: cue)
                let samples = try engine.render(frameCount: 19_200)
                let play = try #require(log.plays.last)
                #expect((0.2...0.9).contains(play.gain) && (0.5...1.5).contains(play.pitch))
                let level = SignalMeasure.rms(samples, channel: 0, channelCount: 2, frames: 480..<4_000)
                #expect(abs(level / reference - Double(play.gain)) < 0.02, "level \(level / reference) for drawn gain \(play.gain)")
                let heard = SignalMeasure.zeroCrossingFrequency(samples, channel: 0, channelCount: 2, sampleRate: Self.rate, frames: 480..<4_000)
                #expect(abs(heard / 400 - Double(play.pitch)) < 0.01, "pitch \(heard / 400) for drawn pitch \(play.pitch)")
            }
        }

        /// The draws alone: 1,000 plays, stopped as they start, rendering nothing.
        private func draws(order: CueOrder, count: Int, variantCount: Int = 3, seed: UInt64 = 0) throws -> [Int] {
            let engine = try TestEngine.offline { $0.seed = seed }
            let log = DesignEventLog(engine)
            var definition = CueDefinition(variants: try (0..<variantCount).map {
                try TestEngine.sine(engine, frequency: 200 + 100 * Double($0), frameCount: 480)
            })
            definition.order = order
            let cue = try engine.makeCue(named: "drawn", definition)
            for _ in 0..<count { try engine.stop(try engine.play(cue: cue)) }
            return log.plays.map(\.variant)
        }

        @Test func randomNoRepeatNeverRepeatsInAThousandPlays() throws {
            let variants = try draws(order: .randomNoRepeat, count: 1_000)
            #expect(variants.count == 1_000)
            #expect(zip(variants, variants.dropFirst()).allSatisfy { $0 != $1 })
            #expect(Set(variants) == [0, 1, 2])
            // Random still: each variant about a third of the time.
            for variant in 0..<3 { #expect((250...420).contains(variants.filter { $0 == variant }.count)) }
        }

        @Test func everyShuffleRoundIsAPermutationThatDoesNotRepeatAcrossRounds() throws {
            let variants = try draws(order: .shuffle, count: 1_000, variantCount: 4)
            for round in stride(from: 0, to: 1_000, by: 4) {
                #expect(Set(variants[round..<round + 4]) == [0, 1, 2, 3], "round at \(round): \(variants[round..<round + 4])")
            }
            #expect(zip(variants, variants.dropFirst()).allSatisfy { $0 != $1 })
        }

        @Test func sequenceWrapsAndRandomMayRepeat() throws {
            #expect(try draws(order: .sequence, count: 7) == [0, 1, 2, 0, 1, 2, 0])
            let random = try draws(order: .random, count: 300)
            #expect(zip(random, random.dropFirst()).contains { $0 == $1 })
        }

        @Test func theSameSeedDrawsTheSameAndAnotherMayNot() throws {
            let first = try draws(order: .random, count: 50, seed: 42)
            #expect(try draws(order: .random, count: 50, seed: 42) == first)
            #expect(try draws(order: .random, count: 50, seed: 43) != first)
        }

        @Test func cooldownDropsPlaysTooSoonAfterTheLastAndCountsRenderedTime() throws {
            let engine = try TestEngine.offline()
            let log = DesignEventLog(engine)
            var definition = CueDefinition(variants: try variants(engine, frameCount: 480))
            definition.cooldownSeconds = 0.1
            let cue = try engine.makeCue(named: "cool", definition)
            #expect(engine.isPlaying(try engine.play(cue: cue)))
            _ = try engine.render(frameCount: 4_799)
            #expect(!engine.isPlaying(try engine.play(cue: cue)))
            _ = try engine.render(frameCount: 1)
            #expect(engine.isPlaying(try engine.play(cue: cue)))
            #expect(log.drops == [.cooldown])
            #expect(log.plays.count == 2)
        }

        @Test func maxVoicesStealsTheOldestOrDropsThePlay() throws {
            let engine = try TestEngine.offline()
            let log = DesignEventLog(engine)
            var definition = CueDefinition(variants: try variants(engine))
            definition.isLooping = true
            definition.maxVoices = 2
            let stealing = try engine.makeCue(named: "stealing", definition)
            definition.steal = .none
            let keeping = try engine.makeCue(named: "keeping", definition)
            let first = try engine.play(cue: stealing), second = try engine.play(cue: stealing), third = try engine.play(cue: stealing)
            #expect(!engine.isPlaying(first) && engine.isPlaying(second) && engine.isPlaying(third))
            let kept = [try engine.play(cue: keeping), try engine.play(cue: keeping)]
            let dropped = try engine.play(cue: keeping)
            #expect(kept.allSatisfy(engine.isPlaying) && !engine.isPlaying(dropped))
            #expect(log.drops == [.maxVoices])
            #expect(engine.statistics.voiceCount == 4)
        }

        @Test func aOneShotThatPlayedItsLastFrameNoLongerCountsAtOnce() throws {
            let engine = try TestEngine.offline()
            let log = DesignEventLog(engine)
            var definition = CueDefinition(variants: [try TestEngine.sine(engine, frequency: 500, frameCount: 4_800)])
            definition.maxVoices = 1
            definition.steal = .none
            let cue = try engine.makeCue(named: "single", definition)
            try engine.play(cue: cue)
            _ = try engine.render(frameCount: 4_799)
            #expect(!engine.isPlaying(try engine.play(cue: cue)))
            // Its last frame is out, and no update has run since: the next play still plays.
            _ = try engine.render(frameCount: 1)
            let next = try engine.play(cue: cue)
            #expect(engine.isPlaying(next))
            #expect(log.drops == [.maxVoices])
            let samples = try engine.render(frameCount: 4_800)
            #expect(SignalMeasure.rms(samples, channel: 0, channelCount: 2, frames: 0..<4_800) > 0.2)
        }

        @Test func badCuesAndPlaysThrowNamingTheCall() throws {
            let engine = try TestEngine.offline()
            let tone = try TestEngine.sine(engine, frameCount: 480)
            var definition = CueDefinition(variants: [tone])
            definition.pitchRange = 0...1
            #expect(throws: InterludeError.self) { try engine.makeCue(named: "bad", definition) }
            definition = CueDefinition(variants: [])
            #expect(throws: InterludeError.self) { try engine.makeCue(named: "empty", definition) }
            definition = CueDefinition(variants: [tone])
            definition.curves = [CueCurve(.gain, parameter: "missing", points: [.init(x: 0, y: 1)])]
            do {
                try engine.makeCue(named: "curved", definition)
                Issue.record("a curve over no parameter was accepted")
            } catch let error as InterludeError {
                #expect(error.message.contains("makeCue(named: curved)") && error.message.contains("missing"))
            }
            let other = try TestEngine.offline()
            defer { other.shutdown() }
            let foreign = try TestEngine.sine(other, frameCount: 480)
            #expect(throws: InterludeError.self) { try engine.makeCue(named: "foreign", CueDefinition(variants: [foreign])) }
            do {
                try engine.play(cue: CueID(name: "nowhere"))
                Issue.record("an unknown cue played")
            } catch let error as InterludeError {
                #expect(error.message.contains("nowhere"))
            }
        }
    }
}
