import Foundation
@testable import Interlude

/// Loop-tagged tracks: Vorbis comments written by vorbiscomment, and a WAV `smpl` chunk
/// appended by hand.
extension StreamFixtureFolder {
    /// Adds `comments` ("KEY=value") to the Ogg file at `path` with /usr/bin/vorbiscomment.
    func tagOgg(_ path: String, _ comments: [String]) throws {
        try StreamProcess.run("/usr/bin/vorbiscomment", ["-a", path] + comments.flatMap { ["-t", $0] })
    }

    /// Appends a `smpl` chunk with one loop, `dwStart` = `startFrame` and `dwEnd` = `lastFrame`
    /// (inclusive), to the WAV at `path`, and fixes the RIFF size.
    func appendSampleLoop(toWAV path: String, startFrame: UInt32, lastFrame: UInt32) throws {
        func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        // manufacturer, product, sample period, MIDI unity note, pitch fraction, SMPTE format and
        // offset, loop count, sampler data; then the loop: cue id, type, start, end, fraction, play count.
        var body = le32(0) + le32(0) + le32(20_833) + le32(60) + le32(0) + le32(0) + le32(0) + le32(1) + le32(0)
        body += le32(0) + le32(0) + le32(startFrame) + le32(lastFrame) + le32(0) + le32(0)
        bytes += Array("smpl".utf8) + le32(UInt32(body.count)) + body
        bytes.replaceSubrange(4..<8, with: le32(UInt32(bytes.count - 8)))
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }
}

/// Test signals whose every frame differs from its neighbours, so a loop seam off by one frame shows.
enum LoopSignal {
    /// Stereo: a 220 Hz sine plus a slow 3 Hz swell on the left, 331 Hz on the right; no period
    /// within the few seconds a test uses.
    static func track(frameCount: Int) -> [Float] {
        var samples = [Float](repeating: 0, count: 2 * frameCount)
        let rate = Double(StreamTone.sampleRate)
        for frame in 0..<frameCount {
            let time = Double(frame) / rate
            samples[2 * frame] = Float(0.3 * sin(2 * .pi * 220 * time) + 0.2 * sin(2 * .pi * 3 * time))
            samples[2 * frame + 1] = Float(0.4 * sin(2 * .pi * 331 * time + 0.5))
        }
        return samples
    }

    /// What a looping play of `track` sounds like for `frameCount` frames: frames 0 ..< loop's
    /// end, then the loop over and over.
    static func expected(_ track: [Float], loop: Range<Int>, frameCount: Int) -> [Float] {
        var output: [Float] = []
        output.reserveCapacity(2 * frameCount)
        output += track[0..<(2 * loop.upperBound)]
        while output.count < 2 * frameCount {
            output += track[(2 * loop.lowerBound)..<(2 * loop.upperBound)]
        }
        return Array(output[0..<(2 * frameCount)])
    }

    /// The position a loop reports after `frames` frames of playing.
    static func position(after frames: Int, loop: Range<Int>) -> Int {
        frames < loop.upperBound ? frames : loop.lowerBound + (frames - loop.upperBound) % loop.count
    }
}
