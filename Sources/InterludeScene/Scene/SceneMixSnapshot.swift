import Interlude

/// A scene's mix snapshot (top-level `snapshots`, version 3): group name -> its factors.
///
/// A plain value: any thread may use it.
public struct SceneMixSnapshot: Sendable, Equatable {
    /// Each listed group's gain and low-pass at full intensity.
    public var groups: [String: GroupMix]
}
