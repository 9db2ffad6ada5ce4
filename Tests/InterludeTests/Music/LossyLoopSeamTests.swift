import Foundation
import Testing
@_spi(Tools) @testable import Interlude

extension EngineSuites {
    /// Looping lossy music without a click, the way game musicians export it: the loop with its
    /// own tail before it and its own head after it (margins), and a loop region that leaves both
    /// margins out: LOOPSTART/LOOPLENGTH tags in the Opus file; MP3 has no such tags, so the game
    /// passes the region. The encoder then codes the loop's first and last frames with real
    /// context on both sides, and the onset error a whole-file loop keeps
    /// (`CodecDecoderTests.loopSeamIsSampleAlignedWithoutAClick`: -44 dBFS for MP3, -49 for Opus)
    /// falls in the margins, which are never looped. Played through an offline 48 kHz engine at
    /// gain 1, so what comes out is the decoded samples.
    ///
    /// MP3 needs 100 ms margins; Opus 200 ms: with 100 ms the chord's seam still clicks at
    /// -43 dBFS, the Opus encoder's output not yet settled 100 ms into the file.
    @Suite struct LossyLoopSeamTests {
        static let rate = CodecFixture.sampleRate
        /// One 16-bit step.
        static let lsb: Float = 1.0 / 32768

        /// What the one-second loop holds. Either loops seamlessly as PCM over any whole number
        /// of its periods, so the whole file with its margins does too.
        enum Content: String, CaseIterable, Sendable, CustomTestStringConvertible {
            /// ``CodecFixture/loopSine()``: a 375 Hz sine, 128 frames a cycle.
            case sine
            /// Partials at multiples of 5 Hz (0.2 s, 9600 frames, a period), bass to treble.
            case chord

            var testDescription: String { rawValue }

            func loop() -> [Int16] {
                switch self {
                case .sine:
                    return CodecFixture.loopSine()
                case .chord:
                    return (0..<LossyLoopSeamTests.rate).flatMap { frame -> [Int16] in
                        let time = Double(frame) / Double(LossyLoopSeamTests.rate)
                        func partial(_ amplitude: Double, _ frequency: Double, _ phase: Double = 0) -> Double {
                            amplitude * sin(2 * .pi * frequency * time + phase)
                        }
                        let left = partial(0.2, 220) + partial(0.15, 275, 1) + partial(0.08, 1660) + partial(0.05, 55)
                        let right = partial(0.2, 330, 0.5) + partial(0.12, 40) + partial(0.06, 2490)
                        return [Int16(left * 32767), Int16(right * 32767)]
                    }
                }
            }
        }

        static func marginFrames(_ codec: Codec) -> Int { codec == .opus ? rate / 5 : rate / 10 }

        static func loopRegion(_ codec: Codec) -> Range<Int> { marginFrames(codec)..<(marginFrames(codec) + rate) }

        /// The loop's tail, the loop, its head: the margins on either side.
        static func trackWithMargins(_ content: Content, _ codec: Codec) -> [Int16] {
            let loop = content.loop()
            return Array(loop.suffix(2 * marginFrames(codec)) + loop + loop.prefix(2 * marginFrames(codec)))
        }

        /// Encodes the track with `codec`; an Opus file gets its loop as OpusTags comments.
        static func encode(_ content: Content, _ codec: Codec, in fixture: CodecFixture) throws -> String {
            let track = trackWithMargins(content, codec)
            guard codec == .opus else { return try fixture.encode(codec, track, channelCount: 2, name: "margins") }
            let wav = try fixture.writeWAV("margins.wav", track, channelCount: 2)
            let opus = fixture.path("margins.opus")
            let loop = loopRegion(codec)
            try CodecFixture.run(["opusenc", "--quiet", "--bitrate", "128",
                                  "--comment", "LOOPSTART=\(loop.lowerBound)", "--comment", "LOOPLENGTH=\(loop.count)",
                                  wav, opus])
            return opus
        }

        @Test(arguments: [Codec.mp3CBR, .mp3VBR, .opus], Content.allCases)
        func aLoopEncodedWithMarginsHasNoClickAtTheSeam(codec: Codec, content: Content) throws {
            let fixture = try CodecFixture()
            let path = try Self.encode(content, codec, in: fixture)
            let source = Self.trackWithMargins(content, codec).map { Float($0) / 32768 }
            let decoded = try DecoderFactory.decodeAll(path: path)
            #expect(decoded.samples.count == source.count)
            guard decoded.samples.count == source.count else { return }
            let loop = Self.loopRegion(codec)
            #expect(decoded.loopRegion == (codec == .opus ? loop : nil))

            let click = try Self.seamClick(path: path, decoded: decoded.samples, source: source,
                                           loopRegion: codec == .opus ? nil : loop, playing: loop)
            // The same file looped whole (as seamless as PCM) keeps the onset error: the measure
            // hears the click the margins remove.
            let wholeFile = 0..<(source.count / 2)
            let wholeClick = try Self.seamClick(path: path, decoded: decoded.samples, source: source,
                                                loopRegion: wholeFile, playing: wholeFile)
            print("\(codec) \(content): \(Self.marginFrames(codec))-frame margins, seam click \(click.error) dBFS "
                  + "(second difference of the output \(click.output) dBFS); looping the whole file \(wholeClick.error) dBFS")
            #expect(click.error < -60, "\(codec) \(content): seam click \(click.error) dBFS")
            #expect(click.output < -60, "\(codec) \(content): seam click in the output \(click.output) dBFS")
            #expect(wholeClick.error > -60, "\(codec) \(content): whole-file seam click \(wholeClick.error) dBFS")
        }

        /// Plays `path` as looping music for 3 s (crossing the seam at least twice), checks that
        /// the output is `decoded` played as intro + `playing` loop, and returns the worst seam
        /// click of any channel and seam, in dBFS, two ways. `error`: how far the peak second
        /// difference of the output's error from `source` (played the same way) within 512
        /// frames either side of a seam rises above its peak over 1024 frames mid-loop.
        /// `output`: the same on the output itself, the measure of the whole-file test, which a
        /// click smaller than the music's own second difference passes unseen.
        static func seamClick(path: String, decoded: [Float], source: [Float], loopRegion: Range<Int>?,
                              playing loop: Range<Int>) throws -> (error: Float, output: Float) {
            let engine = try SoundEngine.streamTestEngine()
            defer { engine.shutdown() }
            try engine.playMusic(path: path, loopRegion: loopRegion)
            let frameCount = 3 * rate
            let rendered = try engine.render(frameCount: frameCount)
            #expect(engine.musicPosition() == LoopSignal.position(after: frameCount, loop: loop))
            let expected = LoopSignal.expected(decoded, loop: loop, frameCount: frameCount)
            let difference = StreamMeasure.maximumDifference(rendered, from: 0, expected, from: 0, frameCount: frameCount)
            #expect(difference <= lsb, "\(path), loop \(loop): differs from intro + loop by \(difference)")

            let ideal = LoopSignal.expected(source, loop: loop, frameCount: frameCount)
            let error = zip(rendered, ideal).map { $0 - $1 }
            let window = 512
            let seams = Array(stride(from: loop.upperBound, through: frameCount - window, by: loop.count))
            #expect(seams.count >= 2)
            let steadyCentre = loop.lowerBound + loop.count / 2
            func excess(_ samples: [Float]) -> Float {
                let steady = Array(samples[(steadyCentre - window) * 2..<(steadyCentre + window) * 2])
                var level: Float = 0
                for seam in seams {
                    let around = Array(samples[(seam - window) * 2..<(seam + window) * 2])
                    for channel in 0..<2 {
                        level = max(level, CodecDecoderTests.peakSecondDifference(around, channel: channel)
                                        - CodecDecoderTests.peakSecondDifference(steady, channel: channel))
                    }
                }
                return 20 * log10(max(level, 1e-9))
            }
            return (excess(error), excess(rendered))
        }
    }
}
