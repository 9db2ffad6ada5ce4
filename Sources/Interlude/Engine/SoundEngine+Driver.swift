extension SoundEngine {
    /// One tick of the driver thread: an update (and the reopen attempt it made due, run off
    /// the lock), then the seconds until the next. That is the update interval, unless the
    /// engine is idle: then the driver sleeps longer, checking the device between, until a
    /// call gives the update work (see ``EngineCore/endCall()``).
    func driverTick() -> Double {
        var attempt: DevicePreparation?
        var waitSeconds = configuration.updateIntervalSeconds
        withLiveCore { core in
            (attempt, waitSeconds) = core.driverUpdate()
        }
        if let attempt { runReopenAttempt(attempt) }
        return waitSeconds
    }

    /// The driver thread is parked: the engine was idle at its last update (tests).
    var isDriverParked: Bool {
        readCore { $0.isDriverAsleep }
    }
}
