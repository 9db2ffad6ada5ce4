/// A mix snapshot the engine keeps by name (``SoundEngine/makeMixSnapshot(named:groups:)``):
/// what ``SoundEngine/blendIn(_:fadeSeconds:)`` and ``SoundEngine/blendOut(_:fadeSeconds:)`` blend in
/// and out.
public struct MixSnapshotID: Hashable, Sendable, CustomStringConvertible {
    private let snapshotName: String

    init(name: String) {
        snapshotName = name
    }

    /// The snapshot's name.
    public var name: String { snapshotName }
    /// The snapshot's name.
    public var description: String { snapshotName }
}
