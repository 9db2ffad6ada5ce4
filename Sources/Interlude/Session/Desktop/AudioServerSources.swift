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

    /// Starts `engine`'s connection when its configuration asks for one (made on a thread of
    /// its own, so the engine's start does not wait for it), or its wait for a server. A connection that cannot even start its thread is logged, and the engine runs
    /// without it.
    static func attach(_ engine: any AudioServerSink, settings: SoundEngine.Configuration.AudioServer, output: OutputDevice,
                       logger: Logger) {
        guard settings.isOn(for: output) else { return }
        let watch = AudioServerWatch(engine: engine, settings: settings)
        let key = ObjectIdentifier(engine)
        if AudioServerPresence.mayAnswer() {
            // On a thread of its own: making the connection (libpulse's context and thread)
            // would cost the engine's start half a millisecond before its first sound.
            let starting = ObjectIdentifier(watch)
            entries.withLock { $0[key] = .starting(starting) }
            do {
                try NamedThread.start("interlude-pulse") {
                    entries.withLock { entries in
                        // Detached meanwhile: the engine is gone.
                        guard case .starting(starting)? = entries[key] else { return }
                        connect(key, watch: watch, logger: logger, in: &entries)
                    }
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
                connect(key, watch: watch, logger: logger, in: &entries)
            }
        }
        entries.withLock { $0[key] = .waiting(timer) }
        timer.resume()
    }

    /// Stops `engine`'s connection or wait, if it has one, and waits for its thread.
    static func detach(_ engine: any AudioServerSink) {
        switch entries.withLock({ $0.removeValue(forKey: ObjectIdentifier(engine)) }) {
        case .waiting(let timer)?: timer.cancel()
        case .connected(let connection)?: connection.stop()
        case .starting?, nil: break
        }
    }

    /// Loads libpulse, makes and starts the connection, and records it as `key`'s.
    private static func connect(_ key: ObjectIdentifier, watch: AudioServerWatch, logger: Logger,
                                in entries: inout [ObjectIdentifier: Entry]) {
        do {
            let connection = try PulseConnection(logger: logger) { event, connection in watch.handle(event, from: connection) }
            try connection.start()
            entries[key] = .connected(connection)
        } catch {
            entries[key] = nil
            logger.error("audio server sources unavailable: \(error)")
        }
    }
}
