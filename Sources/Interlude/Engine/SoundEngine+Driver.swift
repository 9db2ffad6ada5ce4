extension SoundEngine {
    /// One tick of the driver thread: an update, then, off the lock, the reopen attempt it made
    /// due, the output's pause or resume, and its restart; returns the seconds until the next. That is the
    /// update interval, unless the engine is idle: then the driver sleeps longer, checking the
    /// device between, until a call gives the update work (see ``EngineCore/endCall()``).
    func driverTick() -> Double {
        var work = EngineCore.DriverWork(waitSeconds: configuration.updateIntervalSeconds)
        withLiveCore { core in
            work = core.driverUpdate()
        }
        work.outputStep?.run()
        if let attempt = work.attempt { outputChanges.reopenAfterLoss(attempt) }
        if let restart = work.restart { outputChanges.restartOutput(restart) }
        return work.waitSeconds
    }

    /// The driver thread is parked: the engine was idle at its last update (tests).
    var isDriverParked: Bool {
        readCore { $0.isDriverAsleep }
    }
}
