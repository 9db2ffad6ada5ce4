/// A streamed track, as the game holds it: what ``SoundEngine/playMusic(path:channel:isLooping:gain:fadeSeconds:loopRegion:loudnessLUFS:)``
/// and ``SoundEngine/crossfadeMusic(toPath:fadeSeconds:channel:isLooping:gain:loopRegion:loudnessLUFS:)``
/// return. Opaque, compared and hashed, nothing more.
///
/// Commands reach the track while it is its channel's current one; once another track
/// replaces it (a crossfade, a new play) or it ends, commands with the handle do nothing.
/// Queries answer while the track still sounds: during a crossfade, ``SoundEngine/positionInFrames(of:)-(MusicHandle)``
/// of the outgoing track's handle gives its position.
public struct MusicHandle: Sendable, Hashable, CustomStringConvertible {
    /// The channel the track plays on.
    public let channel: StreamChannel
    /// The track's number, unique within the engine.
    let trackID: Int
    /// The engine that made it.
    let engineID: Int

    /// "music TRACK on CHANNEL", for logs.
    public var description: String { "music \(trackID) on \(channel)" }
}

extension MusicHandle {
    /// The handle of `stream`, made by engine `engineID` (an extension keeps the memberwise init).
    init(_ stream: MusicStream, engineID: Int) {
        self.init(channel: stream.channel, trackID: stream.trackID, engineID: engineID)
    }
}
