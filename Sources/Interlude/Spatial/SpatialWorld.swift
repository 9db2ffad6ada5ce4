/// The listener and the rules of distance and motion that every positional voice is heard by:
/// kept by the engine, sent to each new context.
final class SpatialWorld {
    private var currentListener = Listener()
    private var model: DistanceModel
    private var doppler: Float
    private var speedOfSoundMetresPerSecond: Float

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
    }

    /// Changes the listener in place and returns it.
    func updateListener(_ change: (inout Listener) -> Void) -> Listener {
        change(&currentListener)
        return currentListener
    }

    func setDistanceModel(_ model: DistanceModel) {
        self.model = model
    }

    func setDoppler(factor: Float, speedOfSoundMetresPerSecond: Float) {
        doppler = factor
        self.speedOfSoundMetresPerSecond = speedOfSoundMetresPerSecond
    }

    /// Sends the listener, distance model and doppler to the current context.
    func apply() throws {
        try currentListener.apply()
        try applyDistanceModel()
        try applyDoppler()
    }

    /// Sends the distance model to the current context.
    func applyDistanceModel() throws {
        try ALListener.setDistanceModel(model)
    }

    /// Sends the doppler factor and speed of sound to the current context.
    func applyDoppler() throws {
        try ALListener.setDopplerFactor(doppler)
        try ALListener.setSpeedOfSound(speedOfSoundMetresPerSecond)
    }

    /// Scoring against the listener and distance model as they are now.
    func scoring(realBonus: Float) -> VoiceScoring {
        VoiceScoring(listener: currentListener.position, model: model, realBonus: realBonus)
    }
}
