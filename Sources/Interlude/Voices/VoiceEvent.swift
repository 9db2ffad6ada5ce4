/// What happened to a voice.
public enum VoiceEvent: Sendable, Equatable {
    /// The voice is over and its handle is stale, for `reason`.
    case finished(VoiceHandle, reason: VoiceEndReason)
    /// The voice resumed at this frame of its sound after an interruption or a device rebuild.
    case resumed(VoiceHandle, positionInFrames: Int)
    /// The voice's gain fade reached its gain in this update
    /// (``SoundEngine/setGain(_:of:fadeSeconds:curve:)-(_,VoiceHandle,_,_)``, or a pause's fade
    /// out, the voice paused now). A stop's fade ends with ``finished(_:reason:)`` instead.
    case fadeFinished(VoiceHandle)
}

/// Why a voice finished.
public enum VoiceEndReason: String, Sendable, Equatable {
    /// A one-shot played to its end (or a streamed voice's file ended or failed).
    case ended
    /// The game stopped it (``SoundEngine/stop(_:fadeSeconds:)-(VoiceHandle,_)``, a fade-out,
    /// a group stop, or unloading its sound).
    case stopped
    /// A newer voice took its place (a cue at its voice limit).
    case stolen
    /// A system sound cut off by an interruption: system sounds never resume.
    case interrupted
    /// Its sound could not come back on a new device after a device loss or switch.
    case deviceLost
}

extension VoiceEvent: CustomStringConvertible {
    /// The event in words, for example "voice 0.1 finished (ended)".
    public var description: String {
        switch self {
        case .finished(let voice, let reason): "\(voice) finished (\(reason))"
        case .resumed(let voice, let frame): "\(voice) resumed at frame \(frame)"
        case .fadeFinished(let voice): "\(voice): fade finished"
        }
    }
}
