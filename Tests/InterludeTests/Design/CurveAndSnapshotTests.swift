import Foundation
import Testing
@_spi(Tools) @testable import Interlude
import InterludeScene

extension EngineSuites {
    /// Parameters, the curves that follow them, and mix snapshots, heard in offline renders.
    @Suite struct CurveAndSnapshotTests {
        static let rate = TestEngine.sampleRate

        private func level(_ samples: [Float], _ frames: Range<Int> = 480..<4_800) -> Double {
            SignalMeasure.rms(samples, channel: 0, channelCount: 2, frames: frames)
        }

        private func frequency(_ samples: [Float]) -> Double {
            SignalMeasure.zeroCrossingFrequency(samples, channel: 0, channelCount: 2, sampleRate: Self.rate, frames: 480..<4_800)
        }

        /// A looping 400 Hz cue whose gain and pitch follow "speed" (0...10).
        private func curvedEngine() throws -> (SoundEngine, CueID, reference: Double) {
            let engine = try TestEngine.offline()
            let tone = try TestEngine.sine(engine, frequency: 400, frameCount: 48_000)
            let plain = try engine.play(tone, parameters: VoiceParameters(position: nil, isLooping: true))
            let reference = level(try engine.render(frameCount: 4_800))
            try engine.stop(plain)
            try engine.makeParameter(named: "speed", range: 0...10)
            var definition = CueDefinition(variants: [tone])
            definition.isLooping = true
            definition.curves = [
                CueCurve(.gain, parameter: "speed", points: [.init(x: 0, y: 0.25), .init(x: 10, y: 1)]),
                CueCurve(.pitch, parameter: "speed", points: [.init(x: 0, y: 1), .init(x: 4, y: 1), .init(x: 10, y: 2)]),
            ]
            return (engine, try engine.makeCue(named: "engine", definition), reference)
        }

        @Test func curvesSetTheLevelAndFrequencyAtParameterPoints() throws {
            let (engine, cue, reference) = try curvedEngine()
            try engine.play(cue: cue)
            // speed, gain factor, pitch factor: points, between points, beyond the ends.
            for (speed, gain, pitch) in [(0.0, 0.25, 1.0), (10, 1, 2), (5, 0.625, 1 + 1.0 / 6), (2, 0.4, 1)] as [(Float, Double, Double)] {
                try engine.setParameter(speed, of: "speed")
                let samples = try engine.render(frameCount: 4_800)
                #expect(abs(level(samples) / reference - gain) < 0.02, "speed \(speed): level \(level(samples) / reference)")
                #expect(abs(frequency(samples) / 400 - pitch) < 0.01, "speed \(speed): pitch \(frequency(samples) / 400)")
            }
        }

        @Test func aParameterMovesOverItsDurationAndAVoiceMayHaveItsOwn() throws {
            let (engine, cue, reference) = try curvedEngine()
            let shared = try engine.play(cue: cue)
            let own = try engine.play(cue: cue)
            try engine.setParameter(10, of: "speed", on: own)
            #expect(engine.parameterValue(of: "speed", on: own) == 10)
            #expect(engine.parameterValue(of: "speed", on: shared) == 0)
            try engine.stop(own)
            try engine.setParameter(10, of: "speed", fadeSeconds: 1)
            _ = try engine.render(frameCount: 24_000)
            #expect(abs((engine.parameterValue(of: "speed") ?? 0) - 5) < 0.11)
            let samples = try engine.render(frameCount: 480)
            // Halfway: the gain curve's 0.625, within the 10 ms steps.
            #expect(abs(level(samples, 0..<480) / reference - 0.625) < 0.03)
            _ = try engine.render(frameCount: 30_000)
            #expect(engine.parameterValue(of: "speed") == 10)
            #expect(abs(level(try engine.render(frameCount: 4_800)) / reference - 1) < 0.02)
        }

        @Test func aParameterMovesDuringAnInterruptionAndVoicesResumeAtItsValue() throws {
            let (engine, cue, reference) = try curvedEngine()
            try engine.play(cue: cue)
            try engine.beginInterruption(reason: .call)
            try engine.setParameter(10, of: "speed", fadeSeconds: 0.5)
            let silent = try engine.render(frameCount: 48_000)
            #expect(silent.allSatisfy { $0 == 0 })
            try engine.endInterruption(shouldResume: true)
            let samples = try engine.render(frameCount: 4_800)
            #expect(abs(level(samples) / reference - 1) < 0.02)
            #expect(abs(frequency(samples) / 400 - 2) < 0.01)
        }

        @Test func aLowPassCurveLowersTheHighBandOnly() throws {
            let engine = try TestEngine.offline()
            try engine.makeParameter(named: "depth", range: 0...1, defaultValue: 0)
            let high = try TestEngine.sine(engine, frequency: 12_000, frameCount: 48_000)
            let low = try TestEngine.sine(engine, frequency: 200, frameCount: 48_000)
            func band(_ sound: Sound) throws -> (open: Double, closed: Double) {
                var definition = CueDefinition(variants: [sound])
                definition.isLooping = true
                definition.curves = [CueCurve(.lowpass, parameter: "depth", points: [.init(x: 0, y: 1), .init(x: 1, y: 0.1)])]
                let voice = try engine.play(cue: try engine.makeCue(named: "band", definition))
                try engine.setParameter(0, of: "depth")
                let open = level(try engine.render(frameCount: 4_800))
                try engine.setParameter(1, of: "depth")
                let closed = level(try engine.render(frameCount: 4_800), 960..<4_800)
                try engine.stop(voice)
                return (open, closed)
            }
            let highBand = try band(high), lowBand = try band(low)
            #expect(highBand.closed < 0.4 * highBand.open, "12 kHz: \(highBand.closed) of \(highBand.open)")
            #expect(lowBand.closed > 0.9 * lowBand.open, "200 Hz: \(lowBand.closed) of \(lowBand.open)")
        }

        /// A looping 400 Hz voice in "sfx", and its level alone.
        private func snapshotEngine() throws -> (SoundEngine, reference: Double) {
            let engine = try TestEngine.offline()
            let tone = try TestEngine.sine(engine, frequency: 400, frameCount: 48_000)
            try engine.play(tone, parameters: VoiceParameters(position: nil, isLooping: true))
            return (engine, level(try engine.render(frameCount: 4_800)))
        }

        @Test func aSnapshotBlendsByIntensityAndSnapshotsMultiply() throws {
            let (engine, reference) = try snapshotEngine()
            let quiet = try engine.makeMixSnapshot(named: "quiet", groups: [.sfx: GroupMix(gain: 0.2)])
            try engine.blendIn(quiet, fadeSeconds: 2)
            _ = try engine.render(frameCount: 48_000)
            #expect(abs((engine.intensity(of: quiet) ?? 0) - 0.5) < 0.01)
            // At intensity 0.5: 1 + 0.5 x (0.2 - 1) = 0.6.
            #expect(abs(level(try engine.render(frameCount: 480), 0..<480) / reference - 0.6) < 0.02)
            _ = try engine.render(frameCount: 48_000)
            #expect(abs(level(try engine.render(frameCount: 4_800)) / reference - 0.2) < 0.01)
            let half = try engine.makeMixSnapshot(named: "half", groups: [.sfx: GroupMix(gain: 0.5)])
            try engine.blendIn(half)
            try engine.setGain(0.5, of: .sfx)
            #expect(abs(level(try engine.render(frameCount: 4_800)) / reference - 0.05) < 0.003)
            try engine.blendOut(quiet)
            try engine.blendOut(half)
            try engine.setGain(1, of: .sfx)
            #expect(abs(level(try engine.render(frameCount: 4_800)) / reference - 1) < 0.01)
        }

        @Test func aSnapshotLastsThroughAnInterruptionAndADeviceRebuild() throws {
            let (engine, reference) = try snapshotEngine()
            let log = DesignEventLog(engine)
            let quiet = try engine.makeMixSnapshot(named: "quiet", groups: [.sfx: GroupMix(gain: 0.25)])
            try engine.blendOut(quiet)
            #expect(log.all == [.snapshotStopIgnored(quiet)])
            try engine.blendIn(quiet)
            try engine.beginInterruption(reason: .call)
            _ = try engine.render(frameCount: 4_800)
            try engine.endInterruption(shouldResume: true)
            #expect(abs(level(try engine.render(frameCount: 4_800)) / reference - 0.25) < 0.01)
            engine.disconnectDevice()
            _ = try engine.render(frameCount: 4_800)
            try engine.reconnectDevice()
            #expect(abs(level(try engine.render(frameCount: 4_800)) / reference - 0.25) < 0.01)
        }

        @Test func aSnapshotsLowPassDarkensItsGroupsVoices() throws {
            let engine = try TestEngine.offline()
            let high = try TestEngine.sine(engine, frequency: 12_000, frameCount: 48_000)
            try engine.play(high, parameters: VoiceParameters(position: nil, isLooping: true))
            let open = level(try engine.render(frameCount: 4_800))
            let muffled = try engine.makeMixSnapshot(named: "muffled", groups: [.sfx: GroupMix(lowPassGainHF: 0.1)])
            try engine.blendIn(muffled)
            let closed = level(try engine.render(frameCount: 4_800), 960..<4_800)
            #expect(closed < 0.4 * open, "\(closed) of \(open)")
        }

        @Test func aSnapshotOnTheMusicGroupMufflesTheSoundtrackThroughARebuild() throws {
            let folder = try ScratchFolder(prefix: "snapshot-music")
            let writer = try WAVFileWriter(path: folder.path("high.wav"), format: AudioFormat(sampleRate: 48_000, channelCount: 1),
                                           sampleType: .float32)
            try writer.append(TestEngine.sineSamples(frequency: 12_000, frameCount: 96_000))
            try writer.finish()
            let engine = try TestEngine.offline()
            try engine.playMusic(path: folder.path("high.wav"))
            let open = level(try engine.render(frameCount: 4_800))
            let muffled = try engine.makeMixSnapshot(named: "underwater", groups: [.music: GroupMix(lowPassGainHF: 0.1)])
            try engine.blendIn(muffled)
            let closed = level(try engine.render(frameCount: 4_800), 960..<4_800)
            #expect(open > 0.1)
            #expect(closed < 0.4 * open, "\(closed) of \(open)")
            engine.disconnectDevice()
            try engine.reconnectDevice()
            let rebuilt = level(try engine.render(frameCount: 9_600), 4_800..<9_600)
            // The rebuilt device's new source gets the same filter.
            #expect(abs(rebuilt / closed - 1) < 0.05, "after the rebuild: \(rebuilt), before: \(closed)")
            try engine.blendOut(muffled)
            #expect(abs(level(try engine.render(frameCount: 4_800), 960..<4_800) / open - 1) < 0.02)
        }

        @Test func badParametersAndSnapshotsThrowNamingThem() throws {
            let engine = try TestEngine.offline()
            #expect(throws: InterludeError.self) { try engine.makeParameter(named: "flat", range: 1...1) }
            #expect(throws: InterludeError.self) { try engine.makeParameter(named: "out", range: 0...1, defaultValue: 2) }
            try engine.makeParameter(named: "speed", range: 0...10)
            do {
                try engine.setParameter(11, of: "speed")
                Issue.record("a value out of range was set")
            } catch let error as InterludeError {
                #expect(error.message.contains("setParameter(of: speed)"))
            }
            #expect(throws: InterludeError.self) { try engine.setParameter(1, of: "nothing") }
            #expect(throws: InterludeError.self) { try engine.makeMixSnapshot(named: "x", groups: [.sfx: GroupMix(gain: -1)]) }
            #expect(throws: InterludeError.self) { try engine.makeMixSnapshot(named: "x", groups: [.sfx: GroupMix(lowPassGainHF: 2)]) }
            #expect(throws: InterludeError.self) { try engine.blendIn(MixSnapshotID(name: "none")) }
        }
    }
}
