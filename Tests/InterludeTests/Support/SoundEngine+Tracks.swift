import Interlude
import Testing

/// Reads and commands for the track now on a channel, for tests that follow the channel
/// rather than one track's handle.
extension SoundEngine {
    /// The track now on `channel`; the test fails when none is there.
    func track(on channel: StreamChannel = .music, sourceLocation: SourceLocation = #_sourceLocation) throws -> MusicHandle {
        try #require(music(on: channel), "no track on \(channel)", sourceLocation: sourceLocation)
    }

    /// The position of the track now on `channel`, or nil when none is there.
    func musicPosition(on channel: StreamChannel = .music) -> Int? {
        music(on: channel).flatMap { positionInFrames(of: $0) }
    }

    /// The track now on `channel` is playing (or will, when an interruption ends).
    func isTrackPlaying(on channel: StreamChannel = .music) -> Bool {
        music(on: channel).map { isPlaying($0) } ?? false
    }

    /// The length and rate of the track now on `channel`.
    func trackDuration(on channel: StreamChannel = .music) -> (frameCount: Int, sampleRate: Int)? {
        music(on: channel).flatMap { duration(of: $0) }
    }
}
