import Testing
@testable import Interlude

extension EngineSuites {
    /// Each distance model's rendered attenuation matches ``DistanceModel/gain(atDistance:referenceDistance:maxDistance:rolloff:)``.
    @Suite struct DistanceModelTests {
        static let referenceDistance: Float = 2
        static let maxDistance: Float = 20
        static let rolloff: Float = 1

        /// A pair inside [reference, max] and a pair reaching past it. The clamped models clamp at
        /// both ends; the unclamped ones stay above the reference distance, where their gain would
        /// pass 1 and OpenAL caps it at AL_MAX_GAIN; linear stays below max, where it reaches 0.
        static func pairs(for model: DistanceModel) -> [(Float, Float)] {
            switch model {
            case .none, .inverseClamped, .exponentClamped: [(4, 10), (1, 30)]
            case .linearClamped: [(4, 10), (1, 16)]
            case .inverse, .exponent: [(4, 10), (3, 30)]
            case .linear: [(4, 10), (3, 16)]
            }
        }

        /// Total RMS of a sine straight ahead of the listener at `distance`.
        static func renderedRMS(model: DistanceModel, distance: Float) throws -> Double {
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            try engine.setDistanceModel(model)
            let sine = try TestEngine.sine(engine, frequency: 500, frameCount: 4_800)
            let voice = try engine.play(sine, parameters: VoiceParameters(position: Vector3(0, 0, -distance), isLooping: true))
            try engine.changeParameters(of: voice) {
                $0.referenceDistance = referenceDistance
                $0.maxDistance = maxDistance
                $0.rolloffFactor = rolloff
            }
            let samples = try engine.render(frameCount: 14_400)
            #expect(engine.statistics.internalErrorCount == 0)
            return SignalMeasure.totalRMS(samples, channelCount: 2, frames: 4_800..<14_400)
        }

        @Test(arguments: DistanceModel.allCases)
        func renderedRatioMatchesTheFormula(model: DistanceModel) throws {
            for (near, far) in Self.pairs(for: model) {
                let expected = Double(model.gain(atDistance: far, referenceDistance: Self.referenceDistance, maxDistance: Self.maxDistance, rolloff: Self.rolloff))
                    / Double(model.gain(atDistance: near, referenceDistance: Self.referenceDistance, maxDistance: Self.maxDistance, rolloff: Self.rolloff))
                let nearRMS = try Self.renderedRMS(model: model, distance: near)
                let farRMS = try Self.renderedRMS(model: model, distance: far)
                #expect(nearRMS > 0.001, "\(model) at \(near): RMS \(nearRMS)")
                let errorDecibels = SignalMeasure.decibels((farRMS / nearRMS) / expected)
                #expect(abs(errorDecibels) < 1, "\(model) \(near) -> \(far): measured \(farRMS / nearRMS), formula \(expected), error \(errorDecibels) dB")
            }
        }

        @Test func formulaValues() {
            #expect(DistanceModel.none.gain(atDistance: 50, referenceDistance: 2, maxDistance: 20, rolloff: 1) == 1)
            #expect(abs(DistanceModel.inverse.gain(atDistance: 4, referenceDistance: 2, maxDistance: 20, rolloff: 1) - 0.5) < 1e-6)
            #expect(abs(DistanceModel.inverseClamped.gain(atDistance: 30, referenceDistance: 2, maxDistance: 20, rolloff: 1) - 0.1) < 1e-6)
            #expect(abs(DistanceModel.linearClamped.gain(atDistance: 30, referenceDistance: 2, maxDistance: 20, rolloff: 1)) < 1e-6)
            #expect(abs(DistanceModel.exponent.gain(atDistance: 8, referenceDistance: 2, maxDistance: 20, rolloff: 2) - 0.0625) < 1e-6)
        }
    }
}
