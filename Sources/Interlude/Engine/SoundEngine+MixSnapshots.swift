extension SoundEngine {
    /// Makes a mix snapshot ("paused", "underwater"): a set of group gains and low-passes
    /// (``GroupMix``) blended in by its intensity, 0 until started. At intensity i each listed
    /// group's gain is multiplied by `1 + i x (gain - 1)` and the low-pass of its voices (and
    /// of the soundtrack, for ``GroupID/music``) by `1 + i x (lowPassGainHF - 1)`; several
    /// snapshots multiply, and a group's own gain multiplies with them. Snapshots are mix
    /// state: they last through interruptions and device loss. Making one of a name that
    /// exists replaces its groups and keeps its intensity. Throws `.invalidArgument` naming the
    /// call and the snapshot for a group not made or a factor out of range. Any thread.
    @discardableResult
    public func makeMixSnapshot(named name: String, groups: [GroupID: GroupMix]) throws -> MixSnapshotID {
        let call = "makeMixSnapshot(named: \(name))"
        return try withCore(call) { try $0.makeMixSnapshot(named: name, groups: groups, call: call) }
    }

    /// The mix snapshot made with `name`, or nil. Any thread.
    public func mixSnapshot(named name: String) -> MixSnapshotID? {
        readCore { $0.soundDesign.snapshot(named: name) }
    }

    /// Blends a snapshot in: moves its intensity linearly from where it is to 1 over
    /// `fadeSeconds` (0: at once), in the engine's own time. One already at 1 changes nothing.
    /// Throws `.invalidArgument` naming the call and the snapshot for one not made. Any thread.
    public func blendIn(_ snapshot: MixSnapshotID, fadeSeconds: Double = 0) throws {
        let call = "blendIn(\(snapshot.name))"
        try withCore(call, reporting: .blendIn(snapshot)) { try $0.blend(snapshot, isIn: true, fadeSeconds: fadeSeconds, call: call) }
    }

    /// Blends a snapshot out: moves its intensity linearly from where it is to 0 over
    /// `fadeSeconds` (0: at once). One already at rest at 0 is ignored, and says so
    /// (``DesignEvent/snapshotStopIgnored(_:)``). Throws `.invalidArgument` naming the call and
    /// the snapshot for one not made. Any thread.
    public func blendOut(_ snapshot: MixSnapshotID, fadeSeconds: Double = 0) throws {
        let call = "blendOut(\(snapshot.name))"
        try withCore(call, reporting: .blendOut(snapshot)) { try $0.blend(snapshot, isIn: false, fadeSeconds: fadeSeconds, call: call) }
    }

    /// The former name of ``blendIn(_:fadeSeconds:)``, which reads apart from the engine's own
    /// start.
    @available(*, deprecated, renamed: "blendIn(_:fadeSeconds:)")
    public func start(_ snapshot: MixSnapshotID, fadeSeconds: Double = 0) throws {
        try blendIn(snapshot, fadeSeconds: fadeSeconds)
    }

    /// The former name of ``blendOut(_:fadeSeconds:)``.
    @available(*, deprecated, renamed: "blendOut(_:fadeSeconds:)")
    public func stop(_ snapshot: MixSnapshotID, fadeSeconds: Double = 0) throws {
        try blendOut(snapshot, fadeSeconds: fadeSeconds)
    }

    /// A snapshot's intensity now, 0...1, or nil for one this engine has not made. Any thread.
    public func intensity(of snapshot: MixSnapshotID) -> Float? {
        readCore { $0.soundDesign.intensity(of: snapshot) }
    }

}
