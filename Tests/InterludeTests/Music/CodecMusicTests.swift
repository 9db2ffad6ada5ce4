import Foundation
import Testing
@testable import Interlude

extension EngineSuites {
    /// Each compressed format played as music through an offline 48 kHz engine: the rendered
    /// level and frequency say the decoder's samples reached the mix.
    @Suite struct CodecMusicTests {
        @Test(arguments: Codec.allCases)
        func playsAsMusic(codec: Codec) throws {
            let fixture = try CodecFixture()
            let frequency = 750.0
            let tone = StreamTone.stereo(frequency, frameCount: 2 * CodecFixture.sampleRate).map { Int16($0 * 32767) }
            let path = try fixture.encode(codec, tone, channelCount: 2, name: "music")
            let engine = try SoundEngine(configuration: .init(output: .offline(sampleRate: 48_000, channelCount: 2)))
            defer { engine.shutdown() }
            try engine.playMusic(path: path)
            let rendered = try engine.render(frameCount: CodecFixture.sampleRate)
            let frames = (CodecFixture.sampleRate / 4)..<CodecFixture.sampleRate
            let leftLevel = StreamMeasure.rms(rendered, channel: 0, frames: frames)
            let rightLevel = StreamMeasure.rms(rendered, channel: 1, frames: frames)
            let measured = StreamMeasure.frequency(rendered, channel: 0, frames: frames)
            // A 0.5 sine has an RMS of 0.354; the right channel is at 0.8 of the left.
            #expect(abs(leftLevel - 0.354) < 0.03, "\(codec): left RMS \(leftLevel)")
            #expect(abs(rightLevel / leftLevel - 0.8) < 0.05, "\(codec): right/left \(rightLevel / leftLevel)")
            #expect(abs(measured - frequency) < 2, "\(codec): \(measured) Hz")
        }
    }
}
