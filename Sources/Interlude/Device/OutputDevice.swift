/// Where the engine's mix goes.
public enum OutputDevice: Sendable, Equatable, Hashable {
    /// The system's default playback device (PulseAudio, PipeWire's PulseAudio service or ALSA,
    /// through OpenAL Soft's backends).
    case systemDefault
    /// A playback device by the name `interlude info` lists.
    case named(String)
    /// OpenAL Soft's null backend: a real device that mixes in real time and outputs nothing.
    /// It must be chosen before anything in the process has used OpenAL: the engine then sets
    /// `ALSOFT_DRIVERS=null` before OpenAL Soft starts.
    case null
    /// Offline rendering through the loopback device: nothing plays in real time, and
    /// ``SoundEngine/render(frameCount:)`` produces float frames on demand, deterministically.
    case offline(sampleRate: Int = 48_000, channelCount: Int = 2)

    /// True for ``offline(sampleRate:channelCount:)``.
    public var isOffline: Bool {
        if case .offline = self { return true }
        return false
    }
}
