/// The streamed tracks the engine plays at once: the soundtrack and an ambience bed. Each
/// channel holds one track, plus the one it is crossfading away from.
public enum StreamChannel: String, Sendable, Codable, CaseIterable {
    /// The soundtrack: the stream an interruption always resumes. In the "music" group.
    case music
    /// A background bed (wind, rain, crowd). In the "sfx" group.
    case ambience

    /// The index of the gain group the channel's tracks belong to: "music" or "sfx".
    var groupIndex: Int { self == .music ? 1 : 2 }
}
