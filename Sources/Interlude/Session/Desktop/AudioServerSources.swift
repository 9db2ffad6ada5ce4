import Dispatch
import Logging

/// The process's audio-server connections, one per engine that watches the server
/// (``SoundEngine/Configuration/AudioServer``): started with the engine, stopped with its
/// shutdown. Neither is done under the engine's lock.
///
/// While no server may answer (``AudioServerPresence``) an engine's connection waits without
/// libpulse, looking again every ``PulseConnection/longestRetrySecondsNeverReached`` seconds, as
/// often as a connection with no server tries again; when one may, libpulse is loaded and the
/// connection made.
enum AudioServerSources {
    /// An engine's connection, or its wait for a server. `@unchecked Sendable`: a timer is
    /// resumed once, then touched only under ``entries``' lock (to cancel it).
    private enum Entry: @unchecked Sendable {
        /// Its connection is being made on a thread of its own, for the watch named (an engine
        /// detached meanwhile and another made at its address has another).
        case starting(ObjectIdentifier)
        case waiting(DispatchSourceTimer)
        case connected(PulseConnection)
    }

    private static let entries = AnnotatedMutex<[ObjectIdentifier: Entry]>([:])
    private static let queue = DispatchQueue(label: "Interlude audio server wait")

    /// Starts `engine`'s connection when its configuration asks for one, on a thread of its own
    /// so that the engine's start does not wait for libpulse, or its wait for a server. A
    /// connection that cannot be made is logged, and the engine runs without it.
    static func attach(_ engine: any AudioServerSink, settings: SoundEngine.Configuration.AudioServer, output: OutputDevice,
                       logger: Logger) {
        guard settings.isOn(for: output) else { return }
        let watch = AudioServerWatch(engine: engine, settings: settings)
        let key = ObjectIdentifier(engine)
        if AudioServerPresence.mayAnswer() {
            let starting = ObjectIdentifier(watch)
            entries.withLock { $0[key] = .starting(starting) }
            do {
                try NamedThread.start("IL connect") {
                    // Made outside the lock: other engines' starts and shutdowns do not wait.
                    let connection = makeConnection(watch: watch, logger: logger)
                    let isKept = entries.withLock { entries -> Bool in
                        guard case .starting(starting)? = entries[key] else { return false }
                        entries[key] = connection.map { .connected($0) }
                        return true
                    }
                    // Detached meanwhile: the engine is gone.
                    if !isKept { connection?.stop() }
                }
            } catch {
                entries.withLock { $0[key] = nil }
                logger.error("audio server sources unavailable: \(error)")
            }
            return
        }
        logger.debug("no audio server connection: no server socket or PULSE_SERVER; looking again every \(PulseConnection.longestRetrySecondsNeverReached) s")
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let interval = DispatchTimeInterval.milliseconds(Int(PulseConnection.longestRetrySecondsNeverReached * 1000))
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler {
            guard AudioServerPresence.mayAnswer() else { return }
            entries.withLock { entries in
                // Detached meanwhile: the engine is gone, and so is its wait.
                guard case .waiting(let waiting)? = entries[key] else { return }
                waiting.cancel()
                entries[key] = makeConnection(watch: watch, logger: logger).map { .connected($0) }
            }
        }
        entries.withLock { $0[key] = .waiting(timer) }
        timer.resume()
    }

    /// Stops `engine`'s connection or wait, if it has one, and waits for its thread; a
    /// connection still being made is stopped by its own thread once made.
    static func detach(_ engine: any AudioServerSink) {
        switch entries.withLock({ $0.removeValue(forKey: ObjectIdentifier(engine)) }) {
        case .waiting(let timer)?: timer.cancel()
        case .connected(let connection)?: connection.stop()
        case .starting?, nil: break
        }
    }

    /// Loads libpulse, makes and starts a connection for `watch`; nil (logged) when it cannot.
    private static func makeConnection(watch: AudioServerWatch, logger: Logger) -> PulseConnection? {
        do {
            let connection = try PulseConnection(logger: logger) { event, connection in watch.handle(event, from: connection) }
            try connection.start()
            return connection
        } catch {
            logger.error("audio server sources unavailable: \(error)")
            return nil
        }
    }
}
