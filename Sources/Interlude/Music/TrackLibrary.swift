/// The tracks of stems the game defined by name (``SoundEngine/defineTrack(_:)``, a cue bank's
/// `tracks`), checked when defined, so that a play or a transition by name finds them ready.
final class TrackLibrary {
    @exclusivity(unchecked) private var tracks: [String: MusicTrack] = [:]

    /// Defines `track` under its name, replacing any of that name.
    func define(_ track: MusicTrack) {
        tracks[track.name] = track
    }

    /// The track defined as `name`.
    func track(named name: String) -> MusicTrack? { tracks[name] }
}
