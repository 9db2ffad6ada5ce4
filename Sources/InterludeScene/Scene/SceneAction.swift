import Interlude

/// What a scene event does: one case per `do` of docs/scenes.md, with its fields, defaults
/// applied. Times are in seconds.
///
/// A plain value: any thread may use it.
public enum SceneAction: Sendable, Equatable {
    /// `play`: start a voice.
    case play(SceneVoicePlay)
    /// `stop`: stop the voice an earlier `play` named `id`.
    case stop(id: String)
    /// `pause`: pause that voice.
    case pause(id: String)
    /// `resume`: resume that voice.
    case resume(id: String)
    /// `set`: change that voice.
    case set(SceneVoiceChange)
    /// `listener`: move or turn the listener.
    case listener(ListenerChange)
    /// `music.play`: start the streamed soundtrack, replacing any, fading in over `fadeInSeconds`;
    /// `loopPoints` (version 2) override the track's loop tags; `loudnessLUFS` (version 3) is a
    /// loudness target.
    case musicPlay(sound: String, loop: Bool, gain: Float, fadeInSeconds: Double, loopPoints: SceneLoopPoints? = nil,
                   loudnessLUFS: Double? = nil)
    /// `music.pause`.
    case musicPause
    /// `music.resume`.
    case musicResume
    /// `music.stop`.
    case musicStop
    /// `music.crossfade`: cross to another track over `durationSeconds`; `loopPoints` and
    /// `loudnessLUFS` as on `music.play`.
    case musicCrossfade(sound: String, durationSeconds: Double, loop: Bool, loopPoints: SceneLoopPoints? = nil,
                        loudnessLUFS: Double? = nil)
    /// `group`: set a group's gain, fading over `durationSeconds` (0: at once).
    case group(name: String, gain: Float, durationSeconds: Double)
    /// `systemSound`: a short UI sound, unpositioned, never resumed after an interruption.
    case systemSound(sound: String)
    /// `interruption.begin`: another audio session takes over.
    /// `source` is the holder named by the scene, nil for the default ("game").
    case interruptionBegin(reason: String, source: String? = nil)
    /// `interruption.end`: it lets go.
    case interruptionEnd(shouldResume: Bool, source: String? = nil)
    /// `session.activate`: the game reactivates on its own.
    case sessionActivate
    /// `device.lost`: the output device disappears.
    case deviceLost
    /// `device.restored`: a device can be opened again.
    case deviceRestored
    /// `cue` (version 3): play a cue.
    case cue(SceneCuePlay)
    /// `parameter` (version 3): move a parameter to `value` over `durationSeconds` (0: at once).
    case parameter(name: String, value: Float, durationSeconds: Double)
    /// `snapshot.start` (version 3): move a snapshot's intensity to 1 over `fadeSeconds`.
    case snapshotStart(name: String, fadeSeconds: Double)
    /// `snapshot.stop` (version 3): move it to 0 over `fadeSeconds`.
    case snapshotStop(name: String, fadeSeconds: Double)
    /// `music.play` of a track (version 4): its stems as the soundtrack, replacing any.
    case musicPlayTrack(SceneTrackPlay)
    /// `music.stem` (version 4): move a stem of the playing track to `gain` over `durationSeconds`.
    case musicStem(stem: String, gain: Float, durationSeconds: Double)
    /// `music.transition` (version 4): change to `track` on the playing track's next boundary.
    case musicTransition(track: String, quantize: MusicQuantize, entry: MusicEntry, fadeSeconds: Double)
    /// `music.stinger` (version 4): play `sound` once in the music group on the next boundary.
    case musicStinger(sound: String, quantize: MusicQuantize, gain: Float)

    /// The action's `do` string in a scene file, e.g. "music.play".
    public var name: String {
        switch self {
        case .play: "play"
        case .stop: "stop"
        case .pause: "pause"
        case .resume: "resume"
        case .set: "set"
        case .listener: "listener"
        case .musicPlay: "music.play"
        case .musicPause: "music.pause"
        case .musicResume: "music.resume"
        case .musicStop: "music.stop"
        case .musicCrossfade: "music.crossfade"
        case .group: "group"
        case .systemSound: "systemSound"
        case .interruptionBegin: "interruption.begin"
        case .interruptionEnd: "interruption.end"
        case .sessionActivate: "session.activate"
        case .deviceLost: "device.lost"
        case .deviceRestored: "device.restored"
        case .cue: "cue"
        case .parameter: "parameter"
        case .snapshotStart: "snapshot.start"
        case .snapshotStop: "snapshot.stop"
        case .musicPlayTrack: "music.play"
        case .musicStem: "music.stem"
        case .musicTransition: "music.transition"
        case .musicStinger: "music.stinger"
        }
    }
}
