import SoakScenario
import Testing
@testable import Interlude

extension EngineSuites {
    /// The voice pool under a long random mix of plays, stops, fades, pauses and listener moves:
    /// after every update, its bookkeeping agrees with the voices, and every real voice
    /// outranks every virtual one.
    @Suite struct VoicePoolChurnTests {
        @Test func bookkeepingAndRankingHoldThroughChurn() throws {
            let budget = 16
            let engine = try VoicePoolFixture.engine(budget: budget)
            defer { engine.shutdown() }
            let loop = try VoicePoolFixture.tone(engine, frequencyHz: 330)
            let blip = try VoicePoolFixture.tone(engine, frequencyHz: 880, seconds: 0.05)
            // Fixed seed: a failure replays the same way.
            var random = SplitMix64(seed: 6)
            var handles: [VoiceHandle] = []
            var isSfxPaused = false
            func position() -> Vector3 {
                Vector3(Float.random(in: -40...40, using: &random), 0, Float.random(in: -40...40, using: &random))
            }
            for step in 0..<400 {
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    switch Int.random(in: 0..<10, using: &random) {
                    case 0...2:
                        var parameters = VoiceParameters(position: position(), gain: Float.random(in: 0.1...1, using: &random), isLooping: true)
                        parameters.group = Bool.random(using: &random) ? .sfx : .ui
                        handles.append(try engine.play(loop, parameters: parameters))
                    case 3:
                        handles.append(try engine.play(blip, parameters: VoiceParameters(position: position())))
                    case 4:
                        if let voice = handles.randomElement(using: &random) { try engine.stop(voice) }
                    case 5:
                        if let voice = handles.randomElement(using: &random) {
                            let gain = Float.random(in: 0...1, using: &random)
                            if Int.random(in: 0..<4, using: &random) == 0 {
                                try engine.stop(voice, fadeSeconds: 0.05)
                            } else {
                                try engine.setGain(gain, of: voice, fadeSeconds: 0.05)
                            }
                        }
                    case 6:
                        if let voice = handles.randomElement(using: &random) {
                            if Bool.random(using: &random) { try engine.pause(voice) } else { try engine.resume(voice) }
                        }
                    case 7:
                        isSfxPaused.toggle()
                        if isSfxPaused { try engine.pause(GroupID.sfx) } else { try engine.resume(GroupID.sfx) }
                    default:
                        try engine.changeListener { $0.position = position() }
                    }
                }
                // Whole updates: the render begins with one, so the state below is what it chose.
                _ = try engine.render(frameCount: 480 * Int.random(in: 1...3, using: &random))
                let problems = engine.readCore { core in Self.problems(in: core, budget: budget) }
                #expect(problems.isEmpty, "step \(step): \(problems)")
                if !problems.isEmpty { return }
            }
            #expect(engine.statistics.internalErrorCount == 0)
        }

        /// What is wrong with the pool's bookkeeping and ranking, if anything.
        private static func problems(in core: EngineCore, budget: Int) -> [String] {
            var problems: [String] = []
            let storage = core.voiceTable.entries
            let entries = (0..<storage.count).map { storage[$0] }
            let listed = storage.servicedSlots.map(Int.init)
            if Set(listed).count != listed.count { problems.append("a slot is listed twice: \(listed)") }
            for (index, slot) in listed.enumerated() where Int(entries[slot].servicedIndex) != index {
                problems.append("slot \(slot) is listed at \(index) but its entry says \(entries[slot].servicedIndex)")
            }
            let wanted = entries.indices.filter { entries[$0].isPlaying && (entries[$0].isReal || entries[$0].hasFade) }
            if Set(wanted) != Set(listed) { problems.append("listed \(listed.sorted()), should be \(wanted)") }
            for voice in core.voiceTable.liveVoices {
                let entry = entries[voice.handle.slot]
                if entry.isReal != (voice.source != nil) { problems.append("slot \(voice.handle.slot): entry isReal is \(entry.isReal)") }
                if entry.isPlaying != (voice.state == .playing) { problems.append("slot \(voice.handle.slot): entry isPlaying is \(entry.isPlaying)") }
            }
            // The ranking the update made: every real voice at least every virtual one, scored
            // as the update scores them (the real ones with their 1% bonus).
            let scoring = core.world.scoring(realBonus: VoiceScoring.selectionRealBonus)
            let heard = entries.indices.filter { entries[$0].isPlaying && !core.groups.pauses(entries[$0].groupIndex) }
            let scores = core.groups.effectiveGains.withUnsafeBufferPointer { gains in
                heard.map { (slot: $0, score: scoring.score(of: entries[$0], groupGains: gains), isReal: entries[$0].isReal) }
            }
            let weakestReal = scores.filter(\.isReal).map(\.score).min() ?? .infinity
            let strongestVirtual = scores.filter { !$0.isReal }.map(\.score).max() ?? -.infinity
            if weakestReal < strongestVirtual { problems.append("a virtual voice (\(strongestVirtual)) outranks a real one (\(weakestReal))") }
            // Those that fit are all real; beyond the budget, exactly the budget is.
            let realHeard = scores.filter(\.isReal).count
            if realHeard != min(budget, heard.count) {
                problems.append("\(realHeard) of \(heard.count) heard voices are real on a budget of \(budget)")
            }
            return problems
        }
    }
}
