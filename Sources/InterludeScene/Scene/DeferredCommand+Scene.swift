import Interlude

extension DeferredCommand {
    /// The scene action this tracked command stands for, as a scene's log names it in
    /// `commandDeferred` and `commandDropped` (`do`); nil for the commands a scene's log does
    /// not report (the scene contract tracks voices and the soundtrack's transport only).
    public var sceneAction: String? {
        switch self {
        case .play: "play"
        case .playCue: "cue"
        case .playSystemSound: "systemSound"
        case .stop: "stop"
        case .pause: "pause"
        case .resume: "resume"
        case .change: "set"
        case .playMusic: "music.play"
        case .crossfadeMusic: "music.crossfade"
        case .pauseMusic: "music.pause"
        case .resumeMusic: "music.resume"
        case .stopMusic: "music.stop"
        case .setMusicGain, .changeListener, .changeGroup, .pauseGroup, .resumeGroup, .stopGroup, .setParameter, .setVoiceParameter,
             .blendIn, .blendOut: nil
        }
    }
}
