/// A mix snapshot the engine keeps by name (``SoundEngine/makeMixSnapshot(named:groups:)``):
/// what ``SoundEngine/start(_:fadeSeconds:)`` and ``SoundEngine/stop(_:fadeSeconds:)-(MixSnapshotID,_)`` blend in
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
