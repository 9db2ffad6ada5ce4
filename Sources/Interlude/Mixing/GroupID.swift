/// A mix group: every voice and stream belongs to one, and its gain, mute, pause, ducking and
/// reverb apply to all its members.
///
/// The built-in groups are ``master``, ``music``, ``sfx``, ``ui`` and ``voice``. A game makes its
/// own with ``SoundEngine/makeGroup(named:)``: a misspelt group is an error, never a new group.
public struct GroupID: Hashable, Sendable, Codable, CustomStringConvertible {
    private let groupName: String

    init(name: String) {
        groupName = name
    }

    /// The group's name.
    public var name: String { groupName }
    /// The group's name.
    public var description: String { groupName }

    /// Every group's gain is multiplied by master's.
    public static let master = GroupID(name: "master")
    /// The soundtrack's channel.
    public static let music = GroupID(name: "music")
    /// Sound effects: the default for voices, and the ambience channel.
    public static let sfx = GroupID(name: "sfx")
    /// Interface sounds, such as system sounds.
    public static let ui = GroupID(name: "ui")
    /// Dialogue.
    public static let voice = GroupID(name: "voice")

    /// The built-in groups, in the engine's index order (master first).
    static let builtIn: [GroupID] = [.master, .music, .sfx, .ui, .voice]

    /// Encoded as its name alone: a snapshot names a group as the game does.
    public init(from decoder: any Decoder) throws {
        groupName = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(groupName)
    }
}
