import Foundation

extension SoundEngine {
    /// Makes a group for voices to play in (``VoiceParameters/group``), or returns it when it
    /// exists: the built-in groups are ``GroupID/master``, ``GroupID/music``, ``GroupID/sfx``,
    /// ``GroupID/ui`` and ``GroupID/voice``. Throws `.invalidArgument` for an empty name. Any thread.
    @discardableResult
    public func makeGroup(named name: String) throws -> GroupID {
        guard !name.isEmpty else {
            throw InterludeError(.invalidArgument, "makeGroup(named:): a group needs a name")
        }
        return try withCore("makeGroup(named: \(name))") { core in
            _ = core.groups.makeGroup(named: name)
            return GroupID(name: name)
        }
    }

    /// The group made with `name`, or nil when there is none. Any thread.
    public func group(named name: String) -> GroupID? {
        readCore { core in core.groups.index(of: GroupID(name: name)).map { _ in GroupID(name: name) } }
    }

    /// Sets a group's gain, at once or fading over `durationSeconds`. Any thread.
    public func setGroupGain(_ gain: Float, of group: GroupID, durationSeconds: Double = 0, curve: FadeCurve = .linear) throws {
        try Validate.gain(gain, in: "setGroupGain(of: \(group))")
        try Validate.seconds(durationSeconds, "duration", in: "setGroupGain(of: \(group))")
        try withCore("setGroupGain(of: \(group))") { core in
            let index = try core.groups.existingIndex(of: group, in: "setGroupGain(of: \(group))")
            core.groups.setGain(gain, of: index, overSeconds: durationSeconds, curve: curve)
            core.al.run("setGroupGain") { _ in try core.applyGroupGains() }
        }
    }

    /// A group's gain as the game set it (fades included; mute and ducking not); 1 for a group
    /// this engine does not have. Any thread.
    public func groupGain(of group: GroupID) -> Float {
        readCore { core in core.groups.index(of: group).map { core.groups.gain(of: $0) } ?? 1 }
    }

    /// Mutes or unmutes a group: its voices keep playing, unheard. Any thread.
    public func setGroupMuted(_ muted: Bool, of group: GroupID) throws {
        try withCore("setGroupMuted(of: \(group))") { core in
            core.groups.setMuted(muted, of: try core.groups.existingIndex(of: group, in: "setGroupMuted(of: \(group))"))
            core.al.run("setGroupMuted") { _ in try core.applyGroupGains() }
        }
    }

    /// Pauses or resumes a group: its voices and streams stop where they are and continue from
    /// there. A voice paused by itself stays paused when its group resumes. Any thread.
    public func setGroupPaused(_ paused: Bool, of group: GroupID) throws {
        try withCore("setGroupPaused(of: \(group))") { core in
            let index = try core.groups.existingIndex(of: group, in: "setGroupPaused(of: \(group))")
            core.groups.setPaused(paused, of: index)
            core.al.run("setGroupPaused") { device in
                try core.voices.setGroupPaused(paused, group: index)
                try core.streams.setGroupPaused(paused, group: index)
                if !paused { try core.voices.assignSources(on: device) }
            }
        }
    }

    /// Lowers `group` by `decibels` while any voice of `trigger` plays (the music under
    /// dialogue), ramping down over `attackSeconds` and back over `releaseSeconds`. Any thread.
    public func setDucking(of group: GroupID, byDecibels decibels: Float, whilePlaying trigger: GroupID,
                           attackSeconds: Double = 0.05, releaseSeconds: Double = 0.5) throws {
        let call = "setDucking(of: \(group), whilePlaying: \(trigger))"
        guard decibels.isFinite, decibels >= 0 else {
            throw InterludeError(.invalidArgument, "\(call): decibels must be a finite number >= 0, got \(decibels)")
        }
        try Validate.seconds(attackSeconds, "attack", in: call)
        try Validate.seconds(releaseSeconds, "release", in: call)
        try withCore(call) { core in
            core.groups.addDucking(DuckRule(targetIndex: try core.groups.existingIndex(of: group, in: call),
                                            triggerIndex: try core.groups.existingIndex(of: trigger, in: call),
                                            duckedGain: Float(pow(10, Double(-decibels) / 20)),
                                            attackSeconds: attackSeconds, releaseSeconds: releaseSeconds))
        }
    }

    /// Stops ducking `group` under `trigger`. Any thread.
    public func removeDucking(of group: GroupID, whilePlaying trigger: GroupID) throws {
        let call = "removeDucking(of: \(group), whilePlaying: \(trigger))"
        try withCore(call) { core in
            core.groups.removeDucking(target: try core.groups.existingIndex(of: group, in: call),
                                      trigger: try core.groups.existingIndex(of: trigger, in: call))
            core.al.run("removeDucking") { _ in try core.applyGroupGains() }
        }
    }
}
