/// Which call started a voice: it is named in the voice's errors, and says how a play during an
/// interruption is reported (``DeferredCommand``) and whether the voice is a system sound.
enum VoiceOrigin {
    /// `play(_:parameters:)`, or a saved voice restored.
    case play
    /// `playSystemSound(_:gain:)`: never resumed after an interruption.
    case systemSound
    /// `play(cue:at:gain:)`.
    case cue

    /// The call, as errors name it.
    var call: String {
        switch self {
        case .play: "play"
        case .systemSound: "playSystemSound"
        case .cue: "cue"
        }
    }

    /// How a play of this voice is reported while it waits for the session, or is dropped.
    func tracked(_ handle: VoiceHandle) -> DeferredCommand {
        switch self {
        case .play: .play(handle)
        case .systemSound: .playSystemSound
        case .cue: .playCue(handle)
        }
    }
}
