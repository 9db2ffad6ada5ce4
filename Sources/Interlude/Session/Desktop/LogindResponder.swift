import Logging

/// What logind's signals do to the engine: PrepareForSleep(true) interrupts (source
/// ``InterruptionSource/sleep``) and then lets sleep go ahead; PrepareForSleep(false) checks the
/// device and ends; our session going inactive interrupts (``InterruptionSource/sessionSwitch``)
/// until it is active again. It calls the engine like the game would, from the watcher's
/// thread, never holding a bus call under the engine's lock. Watcher thread only.
final class LogindResponder {
    private weak var engine: (any SessionSink)?
    private let settings: SoundEngine.Configuration.LogindSources.Resolved
    private let logger: Logger
    private let inhibitor: LogindInhibitor
    /// The session's Active property as last heard; interrupts only on a change.
    private var sessionIsActive = true
    /// PrepareForSleep(true) was acted on, and no wake since: the machine is asleep as far as the
    /// engine knows. Read against `PreparingForSleep` on every (re)connection.
    private var isAsleep = false

    init(engine: any SessionSink, settings: SoundEngine.Configuration.LogindSources.Resolved, logger: Logger) {
        self.engine = engine
        self.settings = settings
        self.logger = logger
        self.inhibitor = LogindInhibitor(logger: logger)
    }

    /// False once the engine is gone: the watcher then stops.
    var engineIsAlive: Bool { engine != nil }

    /// A new connection: subscribes to what is watched, reads `PreparingForSleep` and takes the
    /// sleep lock, and reads the session's Active property. What changed while the watcher was
    /// away from the bus acts now: a machine going to sleep interrupts, a wake that was missed
    /// ends the sleep hold, a session already inactive interrupts.
    func connected(to bus: LogindBus) throws {
        if settings.watchesSleep {
            try bus.watchSleep()
            try bus.watchLogindStart()
            catchUpWithSleep(on: bus)
        }
        guard settings.watchesSessionSwitch else { return }
        let path: String
        do {
            path = try bus.findSessionPath()
        } catch {
            logger.debug("logind: this process is in no login session (\(error)); the session-switch source is off")
            return
        }
        try bus.watchSession(path: path)
        respond(to: .sessionActive(try bus.readSessionActive(path: path)), on: bus)
    }

    /// Compares logind's `PreparingForSleep` with what the engine last acted on, on each
    /// connection and each time logind (re)starts. A logind that does not answer (none on the
    /// bus yet) changes nothing: its start, or its signals, will.
    private func catchUpWithSleep(on bus: LogindBus) {
        let isPreparing: Bool?
        do {
            isPreparing = try bus.readPreparingForSleep()
        } catch {
            logger.debug("logind: PreparingForSleep not read (\(error))")
            isPreparing = nil
        }
        if isPreparing == true {
            // Going to sleep now: no lock to take, and the hold begins unless it already holds.
            if !isAsleep { respond(to: .prepareForSleep(true), on: bus) }
            return
        }
        inhibitor.take(on: bus)
        if isPreparing == false && isAsleep {
            logger.info("logind: the machine woke while the system bus was away")
            respond(to: .prepareForSleep(false), on: bus)
        }
    }

    /// The connection is gone: the lock went with it.
    func disconnected() {
        inhibitor.release()
    }

    /// Acts on one signal.
    func respond(to signal: LogindBus.Signal, on bus: LogindBus) {
        guard let engine else { return }
        switch signal {
        case .prepareForSleep(true):
            guard settings.watchesSleep else { return }
            logger.info("logind: the machine is going to sleep")
            // Returns once the positions are recorded, output is stopped and the snapshot (when
            // configured) is written: sleep may go ahead.
            engine.beginOwnInterruption(reason: .systemSleep, source: .sleep)
            isAsleep = true
            inhibitor.release()
        case .prepareForSleep(false):
            guard settings.watchesSleep else { return }
            logger.info("logind: the machine woke up")
            // A device that went away during sleep is lost now, so its rebuild, not this end,
            // brings the sound back.
            engine.loseDeviceIfDisconnected()
            engine.endOwnInterruption(source: .sleep)
            isAsleep = false
            inhibitor.take(on: bus)
        case .logindStarted:
            guard settings.watchesSleep else { return }
            catchUpWithSleep(on: bus)
        case .sessionActive(let isActive):
            guard settings.watchesSessionSwitch, isActive != sessionIsActive else { return }
            sessionIsActive = isActive
            if isActive {
                logger.info("logind: our session is active again")
                engine.endOwnInterruption(source: .sessionSwitch)
            } else {
                logger.info("logind: our session is inactive (another session has the seat)")
                // Active is logind's word on it, so the game's activate() keeps this hold.
                engine.beginOwnInterruption(reason: .sessionInactive, source: .sessionSwitch, outlivesActivation: true)
            }
        }
    }
}
