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
        try withCore("makeReverbZone(named: \(name))") { $0.makeReverbZone(zone, preset: preset) }
        return zone
    }

    /// Sends every voice of `group` to a reverb zone (nil: none), unless a voice names its own.
    /// Any thread.
    public func setReverbZone(_ zone: ReverbZoneID?, of group: GroupID) throws {
        let call = "setReverbZone(of: \(group))"
        try withCore(call) { try $0.setReverbZone(zone, of: group, call: call) }
    }
}
