import Interlude

extension DeferredCommand {
    /// The scene action this tracked command stands for, as a scene's log names it in
    /// `commandDeferred` and `commandDropped` (`do`).
    public var sceneAction: String {
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
        }
    }
}
