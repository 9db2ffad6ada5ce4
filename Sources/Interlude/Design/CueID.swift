/// A cue the engine keeps by name (``SoundEngine/makeCue(named:_:)``): what
/// ``SoundEngine/play(cue:at:gain:)`` plays.
public struct CueID: Hashable, Sendable, CustomStringConvertible {
    private let cueName: String

    init(name: String) {
        cueName = name
    }

    /// The cue's name.
    public var name: String { cueName }
    /// The cue's name.
    public var description: String { cueName }
}
