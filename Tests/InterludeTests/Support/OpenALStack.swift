@testable import Interlude

/// The OpenAL Soft release this test process runs on: `make test` runs the suite on the
/// system's 1.19.1, `make test-matrix` again on 1.24.2 (LD_LIBRARY_PATH). Where the two mix
/// differently, a test asserts each release's own behaviour by these.
enum OpenALStack {
    /// The release, read from an offline engine's device (AL_VERSION).
    static let release: ALRelease = {
        do {
            let engine = try SoundEngine(configuration: SoundEngine.Configuration(output: .offline()))
            defer { engine.shutdown() }
            if let release = engine.readCore({ core in (try? core.device.withContext { $0.release }) ?? nil }) ?? nil {
                return release
            }
        } catch {}
        fatalError("OpenALStack: no offline engine could tell the OpenAL Soft release")
    }()

    /// Since 1.20 a paused or stopped voice fades out over the first 64 frames of the next mix,
    /// and a voice resumed mid-sound fades in over 64 (the mixer's de-click ramps); 1.19 cuts.
    /// The frames a pause, stop or resume takes to settle.
    static var deClickFrames: Int { release >= .deClickRamps ? 64 : 0 }

    /// Whether the mixer steps a resampled voice in 16-bit fixed point (1.23 and later, "improved
    /// sub-sample precision for resampled sources": a 44.1 kHz sound at 48 kHz plays 44099.99
    /// frames a second) rather than 1.19's 12-bit (44097.7).
    static var stepsIn16Bits: Bool { release >= ALRelease(major: 1, minor: 23, patch: 0) }

    /// A name for the release in test output.
    static var name: String { "OpenAL Soft \(release)" }
}

extension OpenALStack {
    /// The source frames a voice at `sourceRate` plays in `outputFrames` frames at `outputRate`
    /// at pitch 1: the mixer steps by `sourceRate / outputRate` in fixed point (12 fraction bits
    /// in 1.19, 16 from 1.23), truncated, and counts whole frames.
    static func framesPlayed(sourceRate: Int, outputRate: Int, outputFrames: Int) -> Int {
        let bits = stepsIn16Bits ? 16 : 12
        let step = (sourceRate << bits) / outputRate
        return (outputFrames * step) >> bits
    }
}

extension OpenALStack {
    /// The gain the mixer gives frame `frame` of a voice resumed, or started mid-sound, on the
    /// first frame of a mix pass: 1 from that frame on 1.19; from 1.20 a linear ramp from 0 over
    /// 64 frames (`gain + step × frame`, step 1/64), then 1. Either way the voice plays its own
    /// frames from the frame it resumed on: only the level ramps.
    static func resumeGain(atFrame frame: Int) -> Float {
        frame < deClickFrames ? Float(frame) / Float(deClickFrames) : 1
    }

    /// The gain the mixer gives frame `frame` of a voice paused or stopped before a mix pass,
    /// counted from that pass's first frame: 0 on 1.19 (silent from that frame); from 1.20 the
    /// voice's next frames fade from 1 to 0 over 64 frames, then 0, so a pause cannot click.
    static func pauseGain(atFrame frame: Int) -> Float {
        frame < deClickFrames ? 1 - Float(frame) / Float(deClickFrames) : 0
    }

    /// How many frames after a resume the first non-zero sample comes: at once on 1.19; from
    /// 1.20 the fade-in starts at gain 0, so its first frame is silent and its second is not.
    static var firstAudibleFrameAfterResume: Int { deClickFrames > 0 ? 1 : 0 }
}

extension OpenALStack {
    /// OpenAL Soft's mix pass (BufferLineSize): the most frames one pass of the mixer covers.
    static let mixPassFrames = 1024

    /// Whether `samples` (interleaved, `channelCount` channels) are silent from `endFrame` on,
    /// as a voice that ended, ran dry, or was paused or stopped at `endFrame` leaves them: every
    /// sample exactly 0 on 1.19. From 1.20 the mixer keeps such a voice from clicking: it holds
    /// the voice's last sample nearest zero to the end of the mix pass, then fades it out over
    /// the next pass's first 64 frames. So: sound only in one run of frames from `endFrame`, no
    /// longer than a mix pass and a ramp (``mixPassFrames`` + 64), each channel's level never
    /// rising through the ramp, then exact zeros.
    static func isSilent(_ samples: [Float], channelCount: Int, after endFrame: Int) -> Bool {
        let frameCount = samples.count / channelCount
        let sounding = (max(0, endFrame)..<frameCount).filter { frame in
            (0..<channelCount).contains { samples[frame * channelCount + $0] != 0 }
        }
        guard let first = sounding.first, let last = sounding.last else { return true }
        guard deClickFrames > 0, last - first + 1 == sounding.count, last < endFrame + mixPassFrames + deClickFrames else { return false }
        let ramp = max(first, last - deClickFrames + 1)...last
        return (0..<channelCount).allSatisfy { channel in
            zip(ramp.dropLast(), ramp.dropFirst()).allSatisfy { abs(samples[$1 * channelCount + channel]) <= abs(samples[$0 * channelCount + channel]) }
        }
    }
}
