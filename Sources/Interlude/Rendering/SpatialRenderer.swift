/// Brings OpenAL's listener, distance model and doppler in line with the engine's
/// ``SpatialWorld``, on the current context: everything on a new or resumed context, what
/// changed on each update.
enum SpatialRenderer {
    /// Sends everything `world` holds (context must be current).
    static func sendAll(of world: SpatialWorld) throws {
        world.markAllChanged()
        try sendChanges(of: world)
    }

    /// Sends what changed in `world` since the last send (context must be current). A part that
    /// fails stops the call; the parts after it are sent on the next.
    static func sendChanges(of world: SpatialWorld) throws {
        if let listener = world.takeListenerChange() {
            try ALListener.setPosition(listener.position)
            try ALListener.setVelocity(listener.velocity)
            try ALListener.setOrientation(forward: listener.forward, up: listener.up)
            try ALListener.setGain(listener.gain)
        }
        if let model = world.takeDistanceModelChange() {
            try ALListener.setDistanceModel(model)
        }
        if let doppler = world.takeDopplerChange() {
            try ALListener.setDopplerFactor(doppler.factor)
            try ALListener.setSpeedOfSound(doppler.speedOfSoundMetresPerSecond)
        }
    }
}
