/// Everything the engine tells the game, through ``SoundEngine/events()`` and
/// ``SoundEngine/setEventHandler(_:)``: one stream, with each payload typed by the room it
/// comes from.
public enum EngineEvent: Sendable, Equatable {
    /// The audio session: interruptions beginning and ending, holds, tracked commands.
    case session(SessionEvent)
    /// A voice finished or resumed.
    case voice(VoiceEvent)
    /// A streamed music track: suspended, resumed, damaged, starved.
    case music(MusicEvent)
    /// The output device: lost, rebuilt, moved, started.
    case device(DeviceEvent)
    /// The sound-design layer: a cue play's draws, a dropped play, a snapshot stop that changed
    /// nothing.
    case design(DesignEvent)
    /// A saved state the engine writes on its own (``SoundEngine/Configuration/statePath``: at
    /// an interruption, a device loss, shutdown) could not be written: `error` is
    /// `.writeFailed` naming `path` and the cause. Nothing else changes: the audio plays on,
    /// the file keeps the previous state whole, and the next save tries again. Raised on the
    /// engine's writer thread, before a call that waits for that save returns.
    case savedStateWriteFailed(path: String, error: InterludeError)
}

extension EngineEvent: CustomStringConvertible {
    /// The event in words, as a log line would say it: `print(event)` reads, for example,
    /// "interruption began: phoneCall from phoneStream".
    public var description: String {
        switch self {
        case .session(let event): event.description
        case .voice(let event): event.description
        case .music(let event): event.description
        case .device(let event): event.description
        case .design(let event): event.description
        case .savedStateWriteFailed(let path, let error): "saved state not written to \(path): \(error)"
        }
    }
}
