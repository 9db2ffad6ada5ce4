import Testing
@testable import Interlude
import InterludeScene

extension EngineSuites {
    /// A loaded sound's level meter (``Sound/peakLevel(aroundFrame:)``), read from the peaks the
    /// engine keeps per millisecond: a made float sound and a 16-bit file sound whose samples
    /// live only in OpenAL's buffer.
    @Suite struct SoundLevelsTests {
        /// One second of stereo silence with a burst of `peak` on the right channel only, from
        /// 0.5 s for 10 ms, and a quieter one (peak / 4) on the left from 0.8 s for 1 ms.
        static func bursts(peak: Float, sampleRate: Int) -> [Float] {
            var samples = [Float](repeating: 0, count: 2 * sampleRate)
            for frame in sampleRate / 2..<sampleRate / 2 + sampleRate / 100 { samples[2 * frame + 1] = frame % 2 == 0 ? peak : -peak }
            for frame in sampleRate * 8 / 10..<sampleRate * 8 / 10 + sampleRate / 1000 { samples[2 * frame] = peak / 4 }
            return samples
        }

        /// The meter's readings around the silence and the two bursts.
        static func expectLevels(_ sound: Sound, peak: Float, sampleRate: Int) {
            #expect(sound.peakLevel(aroundFrame: 0) == 0)
            #expect(sound.peakLevel(aroundFrame: sampleRate / 4) == 0)
            // The window just before the burst reaches at most a millisecond into it.
            #expect(sound.peakLevel(aroundFrame: sampleRate / 2 - sampleRate / 50) == 0)
            #expect(sound.peakLevel(aroundFrame: sampleRate / 2) == peak)
            #expect(sound.peakLevel(aroundFrame: sampleRate / 2 + sampleRate / 200) == peak)
            #expect(sound.peakLevel(aroundFrame: sampleRate * 8 / 10) == peak / 4)
            #expect(sound.peakLevel(aroundFrame: sampleRate * 9 / 10) == 0)
            #expect(sound.peakLevel(aroundFrame: 2 * sampleRate) == 0)
        }

        @Test("a made float sound's meter reads its bursts, on either channel, and silence around them")
        func madeSound() throws {
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            let rate = TestEngine.sampleRate
            let sound = try engine.makeSound(name: "bursts", format: AudioFormat(sampleRate: rate, channelCount: 2),
                                             samples: Self.bursts(peak: 0.75, sampleRate: rate))
            Self.expectLevels(sound, peak: 0.75, sampleRate: rate)
        }

        @Test("a 16-bit file sound's meter reads the same, as v / 32768")
        func sixteenBitFileSound() throws {
            let folder = try StreamFixtureFolder()
            let rate = StreamTone.sampleRate
            let path = try folder.writeWAV("bursts.wav", Self.bursts(peak: 0.5, sampleRate: rate), sampleType: .int16)
            let engine = try TestEngine.offline(sampleRate: rate)
            defer { engine.shutdown() }
            let sound = try engine.loadSound(path: path)
            Self.expectLevels(sound, peak: 0.5, sampleRate: rate)
        }
    }
}
