extension SoundEngine {
    /// Makes a group for voices to play in (``VoiceParameters/group``), or returns it when it
    /// exists: the built-in groups are ``GroupID/master``, ``GroupID/music``, ``GroupID/sfx``,
    /// ``GroupID/ui`` and ``GroupID/voice``. Throws `.invalidArgument` for an empty name. Any thread.
    @discardableResult
    public func makeGroup(named name: String) throws -> GroupID {
        guard !name.isEmpty else {
            throw InterludeError(.invalidArgument, "makeGroup(named:): a group needs a name")
        }
        return try withCore("makeGroup(named: \(name))") { core in core.groups.makeGroup(named: name) }
    }

    /// The group made with `name`, or nil when there is none. Any thread.
    public func group(named name: String) -> GroupID? {
        readCore { core in core.groups.index(of: GroupID(name: name)).map { _ in GroupID(name: name) } }
    }

    /// Sets a group's gain (>= 0), which multiplies its voices' and tracks' own: at once, or
    /// moving there over `fadeSeconds` along `curve`. Any thread.
    public func setGain(_ gain: Float, of group: GroupID, fadeSeconds: Double = 0, curve: FadeCurve = .linear) throws {
        try control(.setGain(gain, fadeSeconds: fadeSeconds, curve: curve), .group(group))
    }

    /// A group's gain as the game set it (fades included; mute, ducking and pause fades not);
    /// 1 for a group this engine does not have. Any thread.
    public func gain(of group: GroupID) -> Float {
        readCore { core in core.groups.index(of: group).map { core.groups.gain(of: $0) } ?? 1 }
    }

    /// Pauses a group: its voices and tracks stop where they are, at once or after fading to
    /// silence over `fadeSeconds`. A voice paused by itself stays paused when its group
    /// resumes. Any thread.
    public func pause(_ group: GroupID, fadeSeconds: Double = 0) throws {
        try control(.pause(fadeSeconds: fadeSeconds), .group(group))
    }

    /// Resumes a paused group where it stood: at once, or fading in over `fadeSeconds`.
    /// Any thread.
    public func resume(_ group: GroupID, fadeSeconds: Double = 0) throws {
        try control(.resume(fadeSeconds: fadeSeconds), .group(group))
    }

    /// Stops every voice and track of a group (everything, for master): at once, or after
    /// fading each to silence over `fadeSeconds`. Any thread.
    public func stop(_ group: GroupID, fadeSeconds: Double = 0) throws {
        try control(.stop(fadeSeconds: fadeSeconds), .group(group))
    }

    /// Pauses everything that sounds (the ``GroupID/master`` group), as a game's pause menu
    /// does: at once, or fading out over `fadeSeconds`. Any thread.
    public func pauseAll(fadeSeconds: Double = 0) throws {
        try pause(.master, fadeSeconds: fadeSeconds)
    }

    /// Resumes what ``pauseAll(fadeSeconds:)`` paused: at once, or fading in over
    /// `fadeSeconds`. Any thread.
    public func resumeAll(fadeSeconds: Double = 0) throws {
        try resume(.master, fadeSeconds: fadeSeconds)
    }

    /// True while a group is paused (by ``pause(_:fadeSeconds:)-(GroupID,_)`` or, for every group,
    /// ``pauseAll(fadeSeconds:)``). Any thread.
    public func isPaused(_ group: GroupID) -> Bool {
        readCore { core in core.groups.index(of: group).map { core.groups.pauses($0) } ?? false }
    }

    /// Mutes or unmutes a group: its voices keep playing, unheard. Any thread.
    public func setMuted(_ muted: Bool, of group: GroupID) throws {
        let call = "setMuted(of: \(group))"
        try withCore(call, reporting: .changeGroup(group)) { try $0.setMuted(muted, of: group, call: call) }
    }

    /// Lowers `group` by `decibels` (>= 0) while any voice of `trigger` plays (the music under
    /// dialogue), ramping down over `attackSeconds` and back over `releaseSeconds`. Any thread.
    public func setDucking(_ decibels: Float, of group: GroupID, whilePlaying trigger: GroupID,
                           attackSeconds: Double = 0.05, releaseSeconds: Double = 0.5) throws {
        let call = "setDucking(of: \(group), whilePlaying: \(trigger))"
        guard decibels.isFinite, decibels >= 0 else {
            throw InterludeError(.invalidArgument, "\(call): decibels must be a finite number >= 0, got \(decibels)")
        }
        try Validate.seconds(attackSeconds, "attack", in: call)
        try Validate.seconds(releaseSeconds, "release", in: call)
        try withCore(call, reporting: .changeGroup(group)) { core in
            try core.addDucking(of: group, whilePlaying: trigger, duckedGain: Decibels.gain(of: -decibels),
                                attackSeconds: attackSeconds, releaseSeconds: releaseSeconds, call: call)
        }
    }

    /// Stops ducking `group` under `trigger`. Any thread.
    public func removeDucking(of group: GroupID, whilePlaying trigger: GroupID) throws {
        let call = "removeDucking(of: \(group), whilePlaying: \(trigger))"
        try withCore(call, reporting: .changeGroup(group)) { try $0.removeDucking(of: group, whilePlaying: trigger, call: call) }
    }
}
