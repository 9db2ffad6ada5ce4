/// Brings OpenAL's listener, distance model and doppler in line with the engine's
/// ``SpatialWorld``, on the current context: everything on a new or resumed context, what
/// changed on each update.
enum SpatialRenderer {
    /// Sends everything `world` holds (context must be current).
    static func sendAll(of world: SpatialWorld) throws {
        try send(world.everything())
    }

    /// Sends what changed in `world` since the last send (context must be current).
    static func sendChanges(of world: SpatialWorld) throws {
        try send(world.takeChanges())
    }

    private static func send(_ changes: SpatialWorld.Changes) throws {
        if let listener = changes.listener {
            try ALListener.setPosition(listener.position)
            try ALListener.setVelocity(listener.velocity)
            try ALListener.setOrientation(forward: listener.forward, up: listener.up)
            try ALListener.setGain(listener.gain)
        }
        if let model = changes.distanceModel {
            try ALListener.setDistanceModel(model)
        }
        if let doppler = changes.doppler {
            try ALListener.setDopplerFactor(doppler.factor)
            try ALListener.setSpeedOfSound(doppler.speedOfSoundMetresPerSecond)
        }
    }
}
