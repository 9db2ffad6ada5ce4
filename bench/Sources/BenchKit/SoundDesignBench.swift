import BenchBaseline
import Foundation
import Interlude

/// Scenario 20, the sound-design layer's cost: a cue play against a plain play of the same
/// sound, and the update with 64 voices following curves (of a parameter at rest, and of one
/// moving on every update) against 64 plain voices. Both sides run on offline engines without
/// the driver thread, alternating. The moving curves' extra cost is also set against its floor:
/// raw C making the same 128 AL calls in one deferred batch.
public enum SoundDesignBench {
    /// `plays` plays (each stopped at once, so the voice count stays flat) and `updates`
    /// update() calls per round, medians over `rounds`.
    public static func rows(plays: Int, updates: Int, rounds: Int) throws -> [BenchRow] {
        let playing = try playCost(plays: plays, rounds: rounds)
        let still = try updateCost(updates: updates, rounds: rounds, against: .parameterAtRest)
        let updating = try updateCost(updates: updates, rounds: rounds, against: .parameterMoving)
        let bySetters = try updateCost(updates: updates, rounds: rounds, against: .gameSetters)
        let extra = zip(updating.curvedSamples, updating.plainSamples).map { $0 - $1 }
        let floor = try rawCalls(updates: updates, rounds: rounds)
        return [
            BenchRow(scenario: "20. Sound design", measure: "play(cue:) (random order, drawn gain and pitch, a curve) against play(_:) of the same sound",
                     unit: "µs", engine: playing.cue * 1e6, baseline: playing.plain * 1e6, ratio: playing.cue / playing.plain,
                     ratioMeaning: "cue / plain", goal: "<= 1.2x", isGoalMet: playing.cue / playing.plain <= 1.2,
                     engineSamples: playing.cueSamples, baselineSamples: playing.plainSamples),
            BenchRow(scenario: "20. Sound design", measure: "update(), 64 voices with gain and pitch curves of a parameter at rest, against 64 plain voices",
                     unit: "µs", engine: still.curved * 1e6, baseline: still.plain * 1e6, ratio: still.curved / still.plain,
                     ratioMeaning: "curves / plain", goal: "<= 1.1x", isGoalMet: still.curved / still.plain <= 1.1,
                     engineSamples: still.curvedSamples, baselineSamples: still.plainSamples),
            BenchRow(scenario: "20. Sound design", measure: "setParameter and update(), 64 voices following gain and pitch curves of the parameter, set anew before every update (128 more AL calls), against the same on 64 plain voices",
                     unit: "µs", engine: updating.curved * 1e6, baseline: updating.plain * 1e6, ratio: updating.curved / updating.plain,
                     ratioMeaning: "curves / plain", goal: "<= 1.1x", isGoalMet: updating.curved / updating.plain <= 1.1,
                     engineSamples: updating.curvedSamples, baselineSamples: updating.plainSamples),
            BenchRow(scenario: "20. Sound design", measure: "the same moving curves, against 64 plain voices whose gain and pitch the game sets itself before each update (the same AL calls, without the layer)",
                     unit: "µs", engine: bySetters.curved * 1e6, baseline: bySetters.plain * 1e6, ratio: bySetters.curved / bySetters.plain,
                     ratioMeaning: "curves / setters", goal: "<= 1.1x", isGoalMet: bySetters.curved / bySetters.plain <= 1.1,
                     engineSamples: bySetters.curvedSamples, baselineSamples: bySetters.plainSamples),
            BenchRow(scenario: "20. Sound design", measure: "the moving curves' extra over 64 plain voices (the row before last's difference, round by round), against raw C setting the same 64 gains and pitches (128 alSourcef calls on its thread's own context) in one deferred batch: the floor",
                     unit: "µs", engine: Measure.median(extra) * 1e6, baseline: Measure.median(floor) * 1e6,
                     ratio: Measure.median(extra) / Measure.median(floor), ratioMeaning: "curves' extra / raw C's calls",
                     engineSamples: extra, baselineSamples: floor),
        ]
    }

    /// Seconds of CPU per update of raw C setting 64 looping sources' gain and pitch in one
    /// deferred batch, one figure per round.
    private static func rawCalls(updates: Int, rounds: Int) throws -> [Double] {
        let samples = (0..<4_410).map { Float(sin(Double($0) * 0.05)) * 0.2 }
        return try (0..<rounds).map { _ in
            let seconds = samples.withUnsafeBufferPointer {
                bb_gain_pitch_updates(Int32(BenchAssets.outputSampleRate), $0.baseAddress, Int32($0.count),
                                      Int32(BenchAssets.soundSampleRate), 64, Int32(updates))
            }
            guard seconds >= 0 else { throw BenchError("raw C gain and pitch updates failed: \(Int(seconds))") }
            return seconds
        }
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
        /// 64 plain voices; the parameter set anew before every update, on both engines.
        case parameterMoving
        /// 64 plain voices whose gain and pitch the game sets before each update; the parameter
        /// set anew before every update.
        case gameSetters
    }

    /// Seconds of CPU per update of 64 voices following curves, and per update of 64 plain
    /// voices (after the same parameter call, or the game's setters for `.gameSetters`): medians,
    /// and each round's.
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
        // Offline, an update without a render advances no time, so a fade would not move the
        // parameter: it is set anew before each update instead, on both sides alike (no voice
        // follows it on the plain engine), so the call's own cost is on both.
        var curvedStep = 0
        var plainStep = 0
        func value(_ step: Int) -> Float { Float(step % 100) / 10 }
        let times = try Measure.alternate(rounds: rounds) {
            try Measure.cpuSeconds {
                for _ in 0..<updates {
                    if comparison != .parameterAtRest {
                        curvedStep += 1
                        try curvedEngine.setParameter(value(curvedStep), of: "speed")
                    }
                    curvedEngine.update()
                }
            } / Double(updates)
        } baseline: {
            try Measure.cpuSeconds {
                for _ in 0..<updates {
                    plainStep += 1
                    switch comparison {
                    case .parameterAtRest: break
                    case .parameterMoving: try plainEngine.setParameter(value(plainStep), of: "speed")
                    case .gameSetters:
                        let gain = 0.5 + Float(plainStep % 100) / 200, pitch = 0.8 + Float(plainStep % 100) / 140
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
