/// The listener and the rules of distance and motion that every positional voice is heard by:
/// kept by the engine, sent to each new context. Setters change only the engine's copy and
/// record what changed; the update sends it (``applyChanges()``).
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

    func setDistanceModel(_ model: DistanceModel) {
        self.model = model
        isDistanceModelChanged = true
    }

    func setDoppler(factor: Float, speedOfSoundMetresPerSecond: Float) {
        doppler = factor
        self.speedOfSoundMetresPerSecond = speedOfSoundMetresPerSecond
        isDopplerChanged = true
    }

    /// Something changed that ``applyChanges()`` has not sent yet.
    var hasChanges: Bool { isListenerChanged || isDistanceModelChanged || isDopplerChanged }

    /// Sends the listener, distance model and doppler to the current context (a new context,
    /// or one resumed after an interruption).
    func apply() throws {
        isListenerChanged = true
        isDistanceModelChanged = true
        isDopplerChanged = true
        try applyChanges()
    }

    /// Sends what changed since the last time to the current context. What fails is not sent
    /// again until it changes again.
    func applyChanges() throws {
        if isListenerChanged {
            isListenerChanged = false
            try currentListener.apply()
        }
        if isDistanceModelChanged {
            isDistanceModelChanged = false
            try ALListener.setDistanceModel(model)
        }
        if isDopplerChanged {
            isDopplerChanged = false
            try ALListener.setDopplerFactor(doppler)
            try ALListener.setSpeedOfSound(speedOfSoundMetresPerSecond)
        }
    }

    /// Scoring against the listener and distance model as they are now.
    func scoring(realBonus: Float) -> VoiceScoring {
        VoiceScoring(listener: currentListener.position, model: model, realBonus: realBonus)
    }
}
