extension SoundEngine {
    /// Makes (or remakes with a new preset) a reverb zone: an EFX reverb in an auxiliary effect
    /// slot. Voices send to it with ``VoiceParameters/reverbZone``, or a whole group with
    /// ``setReverbZone(_:of:)``. It is made again after a device rebuild. Any thread.
    @discardableResult
    public func makeReverbZone(named name: String, preset: ReverbPreset) throws -> ReverbZoneID {
        guard !name.isEmpty else {
            throw InterludeError(.invalidArgument, "makeReverbZone(named:): a reverb zone needs a name")
        }
        let zone = ReverbZoneID(name: name)
        try withCore("makeReverbZone(named: \(name))") { core in
            if core.groups.preset(ofZone: zone) != nil {
                core.alRenderer.forgetZoneUnlessDeleted(zone)
            }
            core.groups.setZone(zone, preset: preset)
            core.al.run("makeReverbZone") { _ in try core.voices.applyEffects() }
        }
        return zone
    }

    /// Sends every voice of `group` to a reverb zone (nil: none), unless a voice names its own.
    /// Any thread.
    public func setReverbZone(_ zone: ReverbZoneID?, of group: GroupID) throws {
        let call = "setReverbZone(of: \(group))"
        try withCore(call) { core in
            try core.groups.checkZone(zone, in: call)
            core.groups.setZone(zone, ofGroup: try core.groups.existingIndex(of: group, in: call))
            core.al.run(call) { _ in try core.voices.applyEffects() }
        }
    }
}
