extension SoundEngine {
    // MARK: Listener and world

    /// Replaces the listener; OpenAL hears it at the next update. Tracked while interrupted.
    /// Any thread.
    public func setListener(_ listener: Listener) throws {
        try listener.validate(in: "setListener")
        try withCore("setListener", reporting: .changeListener) { $0.world.setListener(listener) }
    }

    /// The listener as the engine keeps it. Any thread.
    public var listener: Listener {
        readCore { $0.world.listener }
    }

    /// Changes the listener in place, as one read-modify-write under the engine's lock: calls
    /// from several threads at once each see the others' changes. Any thread.
    public func changeListener(_ change: (inout Listener) -> Void) throws {
        try withCore("changeListener", reporting: .changeListener) { try $0.world.changeListener(change) }
    }

    /// Sets the distance model; OpenAL hears it at the next update. Any thread.
    public func setDistanceModel(_ model: DistanceModel) throws {
        try withCore("setDistanceModel", reporting: .changeListener) { $0.world.setDistanceModel(model) }
    }

    /// Sets the doppler factor (>= 0) and the speed of sound (> 0, units per second); OpenAL
    /// hears them at the next update. Any thread.
    public func setDoppler(factor: Float, speedOfSoundMetresPerSecond: Float) throws {
        guard factor.isFinite, factor >= 0, speedOfSoundMetresPerSecond.isFinite, speedOfSoundMetresPerSecond > 0 else {
            throw InterludeError(.invalidArgument, "setDoppler: factor must be >= 0 and speed of sound > 0, got \(factor), \(speedOfSoundMetresPerSecond)")
        }
        try withCore("setDoppler", reporting: .changeListener) { core in
            core.world.setDoppler(factor: factor, speedOfSoundMetresPerSecond: speedOfSoundMetresPerSecond)
        }
    }
}
