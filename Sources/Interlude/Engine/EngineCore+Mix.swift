extension EngineCore {
    // The mix's changes that reach OpenAL at once where it may be called (otherwise the
    // update sends them once the session is active): group mutes and ducking, reverb zones,
    // mix snapshots.

    /// Mutes or unmutes a group: its voices keep playing, unheard.
    func setMuted(_ muted: Bool, of group: GroupID, call: String) throws {
        groups.setMuted(muted, of: try groups.existingIndex(of: group, in: call))
        al.run(call) { _ in try applyGroupGains() }
    }

    /// Lowers `group` to `duckedGain` while any voice of `trigger` plays.
    func addDucking(of group: GroupID, whilePlaying trigger: GroupID, duckedGain: Float,
                    attackSeconds: Double, releaseSeconds: Double, call: String) throws {
        groups.addDucking(DuckRule(targetIndex: try groups.existingIndex(of: group, in: call),
                                   triggerIndex: try groups.existingIndex(of: trigger, in: call),
                                   duckedGain: duckedGain, attackSeconds: attackSeconds, releaseSeconds: releaseSeconds))
    }

    /// Stops ducking `group` under `trigger`.
    func removeDucking(of group: GroupID, whilePlaying trigger: GroupID, call: String) throws {
        groups.removeDucking(target: try groups.existingIndex(of: group, in: call),
                             trigger: try groups.existingIndex(of: trigger, in: call))
        al.run(call) { _ in try applyGroupGains() }
    }

    /// Makes a reverb zone, or gives one a new preset (its old effect slot is let go).
    func makeReverbZone(_ zone: ReverbZoneID, preset: ReverbPreset) {
        if groups.preset(ofZone: zone) != nil {
            alRenderer.forgetZoneUnlessDeleted(zone)
        }
        groups.setZone(zone, preset: preset)
        al.run("makeReverbZone") { _ in try voiceSources.applyEffects() }
    }

    /// Sends every voice of `group` to a reverb zone (nil: none), unless a voice names its own.
    func setReverbZone(_ zone: ReverbZoneID?, of group: GroupID, call: String) throws {
        try groups.checkZone(zone, in: call)
        groups.setZone(zone, ofGroup: try groups.existingIndex(of: group, in: call))
        al.run(call) { _ in try voiceSources.applyEffects() }
    }

    /// Makes a mix snapshot, or replaces the groups of one.
    func makeMixSnapshot(named name: String, groups mixes: [GroupID: GroupMix], call: String) throws -> MixSnapshotID {
        let snapshot = try soundDesign.makeSnapshot(named: name, groups: mixes, call: call)
        applyMix(call: call)
        return snapshot
    }

    /// Blends a snapshot in (`isIn`) or out over `fadeSeconds`.
    func blend(_ snapshot: MixSnapshotID, isIn: Bool, fadeSeconds: Double, call: String) throws {
        if isIn {
            try soundDesign.start(snapshot, fadeSeconds: fadeSeconds, call: call)
        } else {
            try soundDesign.stop(snapshot, fadeSeconds: fadeSeconds, call: call)
        }
        applyMix(call: call)
    }

    /// Sends the group gains and low-passes a snapshot change gave.
    private func applyMix(call: String) {
        guard groups.isDirty || groups.isLowPassDirty else { return }
        al.run(call) { _ in
            try applyGroupGains()
            try applyGroupLowPasses()
        }
    }
}
