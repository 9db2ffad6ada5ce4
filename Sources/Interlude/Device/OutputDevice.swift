/// Where the engine's mix goes.
public enum OutputDevice: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// The system's default playback device (PulseAudio, PipeWire's PulseAudio service or ALSA,
    /// through OpenAL Soft's backends).
    case systemDefault
    /// A playback device by the name `interlude info` lists.
    case named(String)
    /// OpenAL Soft's null backend: a real device that mixes in real time and outputs nothing.
    /// It must be chosen before anything in the process has used OpenAL: the engine then sets
    /// `ALSOFT_DRIVERS=null` before OpenAL Soft starts.
    case null
    /// The system's default playback device when one can open, else OpenAL Soft's null backend:
    /// what a game that must also run headless (a server, CI, a container) asks for, with no
    /// environment variable to set. Before OpenAL starts, the engine checks whether an audio
    /// server (PulseAudio, or PipeWire through pipewire-pulse) answers or an ALSA playback device
    /// exists, and picks ``systemDefault`` or ``null`` once; ``SoundEngine/currentOutput`` says
    /// which. It starts no audio server, and on the null backend OpenAL never tries ALSA, so
    /// nothing is printed about missing sound cards. A user's own `ALSOFT_DRIVERS` wins. Like
    /// ``null``, it must be the first use of OpenAL in the process to reach the null backend; a
    /// later one follows the backend OpenAL already started with.
    case systemDefaultOrNull
    /// Offline rendering through the loopback device: nothing plays in real time, and
    /// ``SoundEngine/render(frameCount:)`` produces float frames on demand, deterministically.
    case offline(sampleRate: Int = 48_000, channelCount: Int = 2)

    /// True for ``offline(sampleRate:channelCount:)``.
    public var isOffline: Bool {
        if case .offline = self { return true }
        return false
    }

    /// The case as Swift writes it, `offline(sampleRate: 48000, channelCount: 2)`: for logs,
    /// written out since reflection costs an engine's start about 6 million instructions.
    public var description: String {
        switch self {
        case .systemDefault: "systemDefault"
        case .named(let name): "named(\(name.debugDescription))"
        case .null: "null"
        case .systemDefaultOrNull: "systemDefaultOrNull"
        case .offline(let sampleRate, let channelCount): "offline(sampleRate: \(sampleRate), channelCount: \(channelCount))"
        }
    }
}
