/// The listener and the rules of distance and motion that every positional voice is heard by:
/// kept by the engine, sent to each new context. Setters change only the engine's copy and
/// record what changed; the update has ``SpatialRenderer`` send it.
final class SpatialWorld {
    @exclusivity(unchecked) private var currentListener = Listener()
    @exclusivity(unchecked) private var model: DistanceModel
    @exclusivity(unchecked) private var doppler: Float
    @exclusivity(unchecked) private var speedOfSoundMetresPerSecond: Float
    /// What changed since it was last sent to the context.
    @exclusivity(unchecked) private var isListenerChanged = false
    @exclusivity(unchecked) private var isDistanceModelChanged = false
    @exclusivity(unchecked) private var isDopplerChanged = false

    init(configuration: SoundEngine.Configuration) {
        model = configuration.distanceModel
        doppler = configuration.dopplerFactor
        speedOfSoundMetresPerSecond = configuration.speedOfSoundMetresPerSecond
    }

    /// The listener as the engine keeps it.
    var listener: Listener { currentListener }

    /// The distance model.
    var distanceModel: DistanceModel { model }

    /// Replaces the listener.
    func setListener(_ listener: Listener) {
        currentListener = listener
        isListenerChanged = true
    }

    /// Changes the listener in place; a change that leaves it invalid throws and changes nothing.
    func changeListener(_ change: (inout Listener) -> Void) throws {
        var changed = currentListener
        change(&changed)
        try changed.validate(in: "changeListener")
        setListener(changed)
    }

    func setDistanceModel(_ model: DistanceModel) {
        self.model = model
        isDistanceModelChanged = true
    }

    func setDoppler(factor: Float, speedOfSoundMetresPerSecond: Float) {
        doppler = factor
        self.speedOfSoundMetresPerSecond = speedOfSoundMetresPerSecond
        isDopplerChanged = true
    }

    /// Something changed that has not been sent yet.
    var hasChanges: Bool { isListenerChanged || isDistanceModelChanged || isDopplerChanged }

    /// Counts everything as changed, for a new context (or one resumed after an interruption).
    func markAllChanged() {
        isListenerChanged = true
        isDistanceModelChanged = true
        isDopplerChanged = true
    }

    // Each part is counted as sent when it is taken, before it is sent: what fails to be sent
    // is not sent again until it changes again, and what comes after it stays due.

    /// The listener, when it changed since it was last taken.
    func takeListenerChange() -> Listener? {
        guard isListenerChanged else { return nil }
        isListenerChanged = false
        return currentListener
    }

    /// The distance model, when it changed since it was last taken.
    func takeDistanceModelChange() -> DistanceModel? {
        guard isDistanceModelChanged else { return nil }
        isDistanceModelChanged = false
        return model
    }

    /// The doppler factor and speed of sound, when they changed since they were last taken.
    func takeDopplerChange() -> (factor: Float, speedOfSoundMetresPerSecond: Float)? {
        guard isDopplerChanged else { return nil }
        isDopplerChanged = false
        return (doppler, speedOfSoundMetresPerSecond)
    }

    /// Scoring against the listener and distance model as they are now.
    func scoring(realBonus: Float) -> VoiceScoring {
        VoiceScoring(listener: currentListener.position, model: model, realBonus: realBonus)
    }
}
