extension SoundEngine {
    /// Makes a cue: a named set of variants, each play of which picks one and draws its gain
    /// and pitch (see ``CueDefinition``). Making a cue of a name that exists replaces it: its
    /// voices play on, and the next play follows the new definition. Throws `.invalidArgument`
    /// naming the call and the cue for a bad definition, a group not made, or a curve over a
    /// parameter not made; `.foreignObject` for a variant this engine did not load. Any thread.
    @discardableResult
    public func makeCue(named name: String, _ definition: CueDefinition) throws -> CueID {
        let call = "makeCue(named: \(name))"
        // Measured here, not under the lock: a made sound measures its loudness when first asked.
        let loudness = definition.loudnessLUFS == nil ? nil : definition.variants.map(\.integratedLoudnessLUFS)
        return try withCore(call) { core in
            try core.soundDesign.makeCue(named: name, definition, variantLoudnessLUFS: loudness, call: call)
        }
    }

    /// The cue made with `name`, or nil. Any thread.
    public func cue(named name: String) -> CueID? {
        readCore { $0.soundDesign.cue(named: name) }
    }

    /// Plays a cue: draws a variant, a gain and a pitch from the engine's seeded generator and
    /// starts an ordinary voice of it, at `position` (nil: unpositioned), its drawn gain
    /// multiplied by `gain`. The handle works with every voice call. The play is dropped, and
    /// the handle is stale, when it comes within the cue's cooldown or past its voice limit
    /// without stealing (``DesignEvent/cueDropped(cue:reason:)``), and, for a one-shot cue,
    /// while interrupted (``SessionEvent/commandDropped(_:)``); a looping cue played
    /// while interrupted starts when the session is active again. Each play raises
    /// ``DesignEvent/cuePlayed(cue:voice:variantIndex:gain:pitch:)`` with what it drew. Throws
    /// as ``play(_:parameters:)`` does, and `.invalidArgument` for a cue not made. Any thread.
    @discardableResult
    public func play(cue: CueID, at position: Vector3? = nil, gain: Float = 1) throws -> VoiceHandle {
        // The call's name is built only for an error: a play is a hot path.
        func call() -> String { "play(cue: \(cue.name))" }
        return try withCore(call()) { core in try core.soundDesign.play(cue: cue, position: position, gain: gain, call: call()) }
    }
}
