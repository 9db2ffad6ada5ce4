/// One playback stream on the audio server (a sink input), as the engine's own libpulse
/// connection last read it.
struct PulseSinkInput: Sendable, Equatable {
    /// The stream's `media.role`, nil when it has none. OpenAL Soft 1.19 blanks its own
    /// stream's (nil here); 1.24 sets none, so the stream has the client's (``SoundEngine/Configuration/mediaRole``).
    var role: String?
    /// The server holds the stream stopped (the client corked it).
    var isCorked: Bool
    /// The stream is muted on the server (a mixer, or a policy such as module-role-cork).
    var isMuted: Bool
    /// The stream belongs to this process: the engine's own output. Known by the stream's
    /// `application.process.id`, or, for a stream that has none (a native PipeWire stream, as
    /// pipewire-pulse shows it), by its client's.
    var isOwn: Bool
}
