extension SoundEngine {
    /// Sets a group's gain, at once or fading over `durationSeconds`. The built-in groups are
    /// master, music, sfx, ui and voice; any other name makes a new group. Any thread.
    public func setGroupGain(_ gain: Float, of group: String, durationSeconds: Double = 0, curve: FadeCurve = .linear) throws {
        try Validate.gain(gain, in: "setGroupGain(\(group))")
        try Validate.seconds(durationSeconds, "duration", in: "setGroupGain(\(group))")
        try withCore("setGroupGain") { core in
            core.groups.setGain(gain, of: core.groups.index(of: group), overSeconds: durationSeconds, curve: curve)
            core.withAL("setGroupGain") { _ in try core.applyGroupGains() }
        }
    }

    /// A group's gain as the game set it (fades included; mute and ducking not). Any thread.
    public func groupGain(of group: String) -> Float {
        core.withLock { core in core.groups.existingIndex(of: group).map { core.groups.gain(of: $0) } ?? 1 }
    }

    /// Mutes or unmutes a group: its voices keep playing, unheard. Any thread.
    public func setGroupMuted(_ muted: Bool, group: String) throws {
        try withCore("setGroupMuted(\(group))") { core in
            core.groups.setMuted(muted, of: core.groups.index(of: group))
            core.withAL("setGroupMuted") { _ in try core.applyGroupGains() }
        }
    }

    /// Pauses or resumes a group: its voices and streams stop where they are and continue from
    /// there. A voice paused by itself stays paused when its group resumes. Any thread.
    public func setGroupPaused(_ paused: Bool, group: String) throws {
        try withCore("setGroupPaused(\(group))") { core in
            core.setGroupPaused(paused, group: core.groups.index(of: group))
        }
    }

    /// Lowers `group` by `decibels` while any voice of `whilePlaying` plays (the music under
    /// dialogue), ramping down over `attackSeconds` and back over `releaseSeconds`. Any thread.
    public func setDucking(_ group: String, byDecibels decibels: Float, whilePlaying trigger: String,
                           attackSeconds: Double = 0.05, releaseSeconds: Double = 0.5) throws {
        let call = "setDucking(\(group), whilePlaying: \(trigger))"
        guard decibels.isFinite, decibels >= 0 else {
            throw InterludeError(.invalidArgument, "\(call): decibels must be a finite number >= 0, got \(decibels)")
        }
        try Validate.seconds(attackSeconds, "attack", in: call)
        try Validate.seconds(releaseSeconds, "release", in: call)
        try withCore(call) { core in
            core.groups.addDucking(DuckRule(targetIndex: core.groups.index(of: group), triggerIndex: core.groups.index(of: trigger),
                                            duckedGain: Float(pow(10, Double(-decibels) / 20)),
                                            attackSeconds: attackSeconds, releaseSeconds: releaseSeconds))
        }
    }

    /// Stops ducking `group` under `trigger`. Any thread.
    public func removeDucking(_ group: String, whilePlaying trigger: String) throws {
        try withCore("removeDucking(\(group))") { core in
            core.groups.removeDucking(target: core.groups.index(of: group), trigger: core.groups.index(of: trigger))
            core.withAL("removeDucking") { _ in try core.applyGroupGains() }
        }
    }

    /// Fades a voice's gain to `gain` over `durationSeconds` on the update; with `stopsAtEnd`
    /// the voice stops when the fade ends (a fade-out). A stale handle does nothing. Any thread.
    public func fadeVoice(_ voice: VoiceHandle, toGain gain: Float, durationSeconds: Double, curve: FadeCurve = .linear,
                          stopsAtEnd: Bool = false) throws {
        try withCore("fadeVoice") { core in
            try core.fade(voice, gainTo: gain, pitchTo: nil, durationSeconds: durationSeconds, curve: curve,
                          stopsAtEnd: stopsAtEnd, command: "fadeVoice")
        }
    }

    /// Glides a voice's pitch to `pitch` over `durationSeconds` on the update. Any thread.
    public func fadeVoicePitch(_ voice: VoiceHandle, toPitch pitch: Float, durationSeconds: Double, curve: FadeCurve = .linear) throws {
        try withCore("fadeVoicePitch") { core in
            try core.fade(voice, gainTo: nil, pitchTo: pitch, durationSeconds: durationSeconds, curve: curve,
                          stopsAtEnd: false, command: "fadeVoicePitch")
        }
    }

    /// Adds (or replaces) a reverb zone: an EFX reverb in an auxiliary effect slot. Voices send
    /// to it with ``VoiceParameters/reverbZone``, or a whole group with
    /// ``setGroupReverbZone(_:zone:)``. It is made again after a device rebuild. Any thread.
    public func addReverbZone(named name: String, preset: ReverbPreset) throws {
        try withCore("addReverbZone(\(name))") { core in
            if let old = core.reverbZones[name], let effect = old.effect, let slot = old.slot {
                core.withAL("addReverbZone") { device in device.deleteReverbSlot(effect: effect, slot: slot) }
            }
            core.reverbZones[name] = ReverbZone(preset: preset)
            core.withAL("addReverbZone") { _ in
                for case let voice? in core.voiceSlots { try core.applyEffects(of: voice) }
            }
        }
    }

    /// Sends every voice of `group` to a reverb zone (nil: none), unless a voice names its own.
    /// Any thread.
    public func setGroupReverbZone(_ group: String, zone: String?) throws {
        try withCore("setGroupReverbZone(\(group))") { core in
            if let zone, core.reverbZones[zone] == nil {
                throw InterludeError(.invalidArgument, "setGroupReverbZone(\(group)): no reverb zone named \(zone)")
            }
            core.groupReverbZones[core.groups.index(of: group)] = zone
            core.withAL("setGroupReverbZone") { _ in
                for case let voice? in core.voiceSlots { try core.applyEffects(of: voice) }
            }
        }
    }

    /// True while the voice holds a real AL source (false while virtual, paused or stale). Any thread.
    public func isReal(_ voice: VoiceHandle) -> Bool {
        core.withLock { $0.voice(for: voice)?.source != nil }
    }
}

#if canImport(Glibc)
import Glibc
#endif
