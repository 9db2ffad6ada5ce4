import Foundation
import Testing
@testable import Interlude

/// An Ogg Vorbis file with 400 bytes damaged mid-file, as found in real game files: the decoder
/// steps over the lost page as oggdec and sox do, reads what it took as silence so every later
/// frame keeps its position, and the soundtrack plays on with an event.
@Suite struct DamagedOggTests {
    static let rate = DamageFixture.rate
    static let seconds = DamageFixture.seconds

    /// A 6 s stereo tone encoded by oggenc, and a copy with 400 bytes in its middle overwritten.
    static func files(_ folder: StreamFixtureFolder) throws -> (intact: String, damaged: String) {
        try DamageFixture.files(folder, fileExtension: "ogg") { wav, output in
            try FileManager.default.moveItem(atPath: try folder.encodeOgg(wavPath: wav, name: "encoded.ogg", quality: 3), toPath: output)
        }
    }

    @Test(arguments: [4_096, 100, 1])
    func theHoleIsReadAsSilenceAndLaterFramesKeepTheirPlace(framesPerRead: Int) throws {
        let folder = try StreamFixtureFolder()
        let (intact, damaged) = try Self.files(folder)
        let reference = try DamageFixture.readAll(VorbisDecoder(path: intact), framesPerRead: 4_096)
        let decoder = try VorbisDecoder(path: damaged)
        let samples = try DamageFixture.readAll(decoder, framesPerRead: framesPerRead)
        // Every frame is there: the stream did not end at the damage.
        #expect(decoder.frameCount == Self.seconds * Self.rate)
        #expect(samples.count == reference.count)
        #expect(decoder.skippedFrameCount > 0)
        // A lost page takes its packets with it: about a second at this low bitrate, never the rest.
        #expect(decoder.skippedFrameCount < 2 * Self.rate, "a 400-byte hole took \(decoder.skippedFrameCount) frames")
        // The lost stretch is exact silence, somewhere in the middle second.
        let frames = samples.count / 2
        let silentFrames = (0..<frames).filter { samples[2 * $0] == 0 && samples[2 * $0 + 1] == 0 }
        #expect(silentFrames.count >= decoder.skippedFrameCount)
        // The last two seconds, well past the hole, are the intact file's frames at the same positions.
        let tail = (frames - 2 * Self.rate) * 2
        let difference = zip(samples[tail...], reference[tail...]).map { abs($0 - $1) }.max() ?? 1
        #expect(difference < 1e-6, "the frames after the hole moved: largest difference \(difference)")
    }

    @Test func aSeekAfterTheHoleLandsOnTheExactFrame() throws {
        let folder = try StreamFixtureFolder()
        let (intact, damaged) = try Self.files(folder)
        let read = try DamageFixture.framesAfterSeek(intact: VorbisDecoder(path: intact), damaged: VorbisDecoder(path: damaged), to: 5 * Self.rate)
        #expect(read.got == read.expected)
    }
}

extension EngineSuites {
    @Suite struct DamagedSoundtrackTests {
        @Test(arguments: ["Vorbis", "Opus", "FLAC"])
        func theSoundtrackPlaysOnPastTheDamageAndTellsTheGame(codec: String) throws {
            let folder = try StreamFixtureFolder()
            let files = switch codec {
            case "Opus": try DamagedOpusTests.files(folder)
            case "FLAC": try DamagedFLACTests.files(folder)
            default: try DamagedOggTests.files(folder)
            }
            let damaged = files.damaged
            let rig = try SessionRig(sampleRate: DamagedOggTests.rate)
            try rig.engine.playMusic(path: damaged, isLooping: false)
            try rig.render(seconds: Double(DamagedOggTests.seconds) + 0.5)
            let events = rig.takeEvents()
            let damage = events.compactMap { event -> (String, Int, Int)? in
                if case .music(.damageSkipped(let path, let start, let skipped)) = event { return (path, start, skipped) }
                return nil
            }
            #expect(damage.count == 1, "events: \(events)")
            if let (path, start, skipped) = damage.first {
                #expect(path == damaged)
                #expect(start > DamagedOggTests.rate && start < (DamagedOggTests.seconds - 1) * DamagedOggTests.rate)
                #expect(skipped > 0)
            }
            // Audible after the damage, to the end of the track: it did not stop at the hole.
            let rate = DamagedOggTests.rate
            let lastSecond = (DamagedOggTests.seconds - 1) * rate..<(DamagedOggTests.seconds * rate - 100)
            #expect(rig.rms(lastSecond) > 0.05)
            #expect(rig.engine.musicError() == nil)
        }
    }
}
