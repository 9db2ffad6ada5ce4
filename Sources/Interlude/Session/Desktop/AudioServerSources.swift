import Logging

/// The process's audio-server connections, one per engine that watches the server
/// (``SoundEngine/Configuration/AudioServer``): started with the engine, stopped with its
/// shutdown. Neither is done under the engine's lock.
enum AudioServerSources {
    private static let connections = AnnotatedMutex<[ObjectIdentifier: PulseConnection]>([:])

    /// Starts `engine`'s connection when its configuration asks for one. A connection that
    /// cannot even start its thread is logged, and the engine runs without it.
    static func attach(_ engine: SoundEngine, logger: Logger) {
        let settings = engine.configuration.audioServer
        guard settings.isOn(for: engine.configuration.output) else { return }
        let watch = AudioServerWatch(engine: engine, settings: settings)
        do {
            let connection = try PulseConnection(logger: logger) { event, connection in watch.handle(event, from: connection) }
            try connection.start()
            connections.withLock { $0[ObjectIdentifier(engine)] = connection }
        } catch {
            logger.error("audio server sources unavailable: \(error)")
        }
    }

    /// Stops `engine`'s connection, if it has one, and waits for its thread.
    static func detach(_ engine: SoundEngine) {
        let connection = connections.withLock { $0.removeValue(forKey: ObjectIdentifier(engine)) }
        connection?.stop()
    }
}
