import Foundation
import Testing
@_spi(Tools) @testable import Interlude

/// `Configuration.limiter` (ALC_OUTPUT_LIMITER_SOFT), heard on a float loopback render: a loud
/// pile of voices never passes full scale with it and does without; a quiet mix is unchanged.
extension EngineSuites {
    @Suite struct OutputLimiterTests {
        static let rate = TestEngine.sampleRate

        /// The output of `voiceCount` unpositioned sines at `amplitude` (spread in frequency so
        /// their peaks meet now and then), 1 s, on an offline engine with `limiter`.
        static func render(voiceCount: Int, amplitude: Float, limiter: Bool?, rebuildsDevice: Bool = false) throws -> [Float] {
            let engine = try TestEngine.offline { $0.limiter = limiter }
            defer { engine.shutdown() }
            if rebuildsDevice {
                engine.disconnectDevice()
                try engine.reconnectDevice()
            }
            for index in 0..<voiceCount {
                let sound = try TestEngine.sine(engine, frequency: 220 + 55 * Double(index), amplitude: amplitude)
                _ = try engine.play(sound, parameters: VoiceParameters(position: nil, isLooping: true))
            }
            return try engine.render(frameCount: rate)
        }

        static func peak(_ samples: [Float]) -> Float { samples.map { abs($0) }.max() ?? 0 }

        @Test func twelveLoudVoicesPeakAtFullScaleWithTheLimiterAndAboveWithout() throws {
            let limited = try Self.render(voiceCount: 12, amplitude: 0.9, limiter: true)
            let plain = try Self.render(voiceCount: 12, amplitude: 0.9, limiter: nil)
            #expect(Self.peak(limited) <= 1.0, "peak \(Self.peak(limited)) with the limiter")
            #expect(Self.peak(limited) > 0.5, "the limited mix still sounds")
            #expect(Self.peak(plain) > 1.5, "peak \(Self.peak(plain)) without it (offline default: off)")
        }

        @Test func aRebuiltDeviceKeepsTheLimiter() throws {
            let limited = try Self.render(voiceCount: 12, amplitude: 0.9, limiter: true, rebuildsDevice: true)
            #expect(Self.peak(limited) <= 1.0, "peak \(Self.peak(limited)) on the rebuilt device")
        }

        @Test func aQuietMixPassesUnchanged() throws {
            let limited = try Self.render(voiceCount: 2, amplitude: 0.2, limiter: true)
            let plain = try Self.render(voiceCount: 2, amplitude: 0.2, limiter: false)
            for channel in 0..<2 {
                let ratio = SignalMeasure.rms(limited, channel: channel, channelCount: 2)
                    / SignalMeasure.rms(plain, channel: channel, channelCount: 2)
                #expect(abs(SignalMeasure.decibels(ratio)) < 0.1, "channel \(channel): \(SignalMeasure.decibels(ratio)) dB")
            }
            #expect(abs(Self.peak(limited) - Self.peak(plain)) < 0.01)
        }

        @Test func theLimiterIsOnForRealDevicesAndOffOfflineByDefault() {
            let configuration = SoundEngine.Configuration()
            #expect(configuration.limitsOutput(on: .systemDefault))
            #expect(configuration.limitsOutput(on: .null))
            #expect(!configuration.limitsOutput(on: .offline(sampleRate: 48_000, channelCount: 2)))
            var off = configuration
            off.limiter = false
            #expect(!off.limitsOutput(on: .systemDefault))
        }
    }
}
