import Foundation
import Interlude

/// Scenario 20, the sound-design layer's cost: a cue play against a plain play of the same
/// sound, and the update with 64 voices following curves (of a parameter at rest, and of one
/// moving on every update) against 64 plain voices. Both sides run on offline engines without
/// the driver thread, alternating.
public enum SoundDesignBench {
    /// `plays` plays (each stopped at once, so the voice count stays flat) and `updates`
    /// update() calls per round, medians over `rounds`.
    public static func rows(plays: Int, updates: Int, rounds: Int) throws -> [BenchRow] {
        let playing = try playCost(plays: plays, rounds: rounds)
        let still = try updateCost(updates: updates, rounds: rounds, against: .parameterAtRest)
        let updating = try updateCost(updates: updates, rounds: rounds, against: .parameterMoving)
        let bySetters = try updateCost(updates: updates, rounds: rounds, against: .gameSetters)
        return [
            BenchRow(scenario: "20. Sound design", measure: "play(cue:) (random order, drawn gain and pitch, a curve) against play(_:) of the same sound",
                     unit: "µs", engine: playing.cue * 1e6, baseline: playing.plain * 1e6, ratio: playing.cue / playing.plain,
                     ratioMeaning: "cue / plain", goal: "<= 1.2x", isGoalMet: playing.cue / playing.plain <= 1.2,
                     engineSamples: playing.cueSamples, baselineSamples: playing.plainSamples),
            BenchRow(scenario: "20. Sound design", measure: "update(), 64 voices with gain and pitch curves of a parameter at rest, against 64 plain voices",
                     unit: "µs", engine: still.curved * 1e6, baseline: still.plain * 1e6, ratio: still.curved / still.plain,
                     ratioMeaning: "curves / plain", goal: "<= 1.1x", isGoalMet: still.curved / still.plain <= 1.1,
                     engineSamples: still.curvedSamples, baselineSamples: still.plainSamples),
            BenchRow(scenario: "20. Sound design", measure: "update(), 64 voices following gain and pitch curves of a parameter moving on every update (128 more AL calls), against 64 plain voices",
                     unit: "µs", engine: updating.curved * 1e6, baseline: updating.plain * 1e6, ratio: updating.curved / updating.plain,
                     ratioMeaning: "curves / plain", goal: "<= 1.1x", isGoalMet: updating.curved / updating.plain <= 1.1,
                     engineSamples: updating.curvedSamples, baselineSamples: updating.plainSamples),
            BenchRow(scenario: "20. Sound design", measure: "the same moving curves, against 64 plain voices whose gain and pitch the game sets itself before each update (the same AL calls, without the layer)",
                     unit: "µs", engine: bySetters.curved * 1e6, baseline: bySetters.plain * 1e6, ratio: bySetters.curved / bySetters.plain,
                     ratioMeaning: "curves / setters", goal: "<= 1.1x", isGoalMet: bySetters.curved / bySetters.plain <= 1.1,
                     engineSamples: bySetters.curvedSamples, baselineSamples: bySetters.plainSamples),
        ]
    }

    private static func engine() throws -> (SoundEngine, Sound, CueID) {
        let engine = try SceneRunner.offlineEngine { $0.runsDriverThread = false }
        let format = AudioFormat(sampleRate: BenchAssets.soundSampleRate, channelCount: 1)
        let samples = (0..<4_410).map { Float(sin(Double($0) * 0.05)) * 0.2 }
        let sound = try engine.makeSound(name: "tone", format: format, samples: samples)
        try engine.makeParameter(named: "speed", range: 0...10)
        var definition = CueDefinition(variants: [sound, sound, sound])
        definition.order = .random
        definition.gainRange = 0.5...1
        definition.pitchRange = 0.9...1.1
        definition.isLooping = true
        definition.curves = [
            CueCurve(.gain, parameter: "speed", points: [.init(x: 0, y: 0.5), .init(x: 10, y: 1)]),
            CueCurve(.pitch, parameter: "speed", points: [.init(x: 0, y: 0.8), .init(x: 5, y: 1), .init(x: 10, y: 1.5)]),
        ]
        return (engine, sound, try engine.makeCue(named: "engine", definition))
    }

    /// Seconds of CPU per play, plain and cue: medians, and each round's.
    private static func playCost(plays: Int, rounds: Int) throws
        -> (plain: Double, cue: Double, plainSamples: [Double], cueSamples: [Double]) {
        let (engine, sound, cue) = try engine()
        defer { engine.shutdown() }
        let parameters = VoiceParameters(position: Vector3(1, 0, -1), isLooping: true)
        let times = try Measure.alternate(rounds: rounds) {
            try Measure.cpuSeconds { for _ in 0..<plays { try engine.stop(try engine.play(cue: cue, at: Vector3(1, 0, -1))) } } / Double(plays)
        } baseline: {
            try Measure.cpuSeconds { for _ in 0..<plays { try engine.stop(try engine.play(sound, parameters: parameters)) } } / Double(plays)
        }
        return (Measure.median(times.baseline), Measure.median(times.engine), times.baseline, times.engine)
    }

    /// What the update of 64 voices following curves is measured against.
    private enum UpdateComparison {
        /// 64 plain voices; the parameter at rest.
        case parameterAtRest
        /// 64 plain voices; the parameter moving on every update.
        case parameterMoving
        /// 64 plain voices whose gain and pitch the game sets before each update; the parameter
        /// moving on every update.
        case gameSetters
    }

    /// Seconds of CPU per update of 64 voices following curves, and per update of 64 plain
    /// voices (after the game's setters, for `.gameSetters`): medians, and each round's.
    private static func updateCost(updates: Int, rounds: Int, against comparison: UpdateComparison) throws
        -> (plain: Double, curved: Double, plainSamples: [Double], curvedSamples: [Double]) {
        let (plainEngine, sound, _) = try engine()
        let (curvedEngine, _, cue) = try engine()
        defer {
            plainEngine.shutdown()
            curvedEngine.shutdown()
        }
        var voices: [VoiceHandle] = []
        for index in 0..<64 {
            let position = Vector3(Float(index % 8) - 4, 0, -Float(index / 8) - 1)
            voices.append(try plainEngine.play(sound, parameters: VoiceParameters(position: position, isLooping: true)))
            try curvedEngine.play(cue: cue, at: position)
        }
        var rising = true
        var step = 0
        let times = try Measure.alternate(rounds: rounds) {
            if comparison != .parameterAtRest {
                // A parameter always on the move: every update moves it and every curve with it.
                try curvedEngine.setParameter(rising ? 10 : 0, of: "speed", fadeSeconds: 1_000)
                rising.toggle()
            }
            return Measure.cpuSeconds { for _ in 0..<updates { curvedEngine.update() } } / Double(updates)
        } baseline: {
            try Measure.cpuSeconds {
                for _ in 0..<updates {
                    if comparison == .gameSetters {
                        step += 1
                        let gain = 0.5 + Float(step % 100) / 200, pitch = 0.8 + Float(step % 100) / 140
                        for voice in voices {
                            try plainEngine.setGain(gain, of: voice)
                            try plainEngine.setPitch(pitch, of: voice)
                        }
                    }
                    plainEngine.update()
                }
            } / Double(updates)
        }
        return (Measure.median(times.baseline), Measure.median(times.engine), times.baseline, times.engine)
    }
}
