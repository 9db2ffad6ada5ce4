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
        if let attempt = work.attempt { runReopenAttempt(attempt) }
        if let restart = work.restart { restartOutput(restart) }
        return work.waitSeconds
    }

    /// Starts the output over off the lock, once the update found it left behind its server
    /// (``OutputRouter/restartOutputIfDue()``): in place, or, where that cannot be or failed, on
    /// a new device as a switch does.
    private func restartOutput(_ restart: OutputRouter.OutputRestart) {
        var rebuild: DevicePreparation?
        switch restart {
        case .inPlace(let reopen):
            let restarted = reopenOffLock(reopen) { core, succeeded, seconds in
                core.router.outputRestarted(reopen, succeeded: succeeded, seconds: seconds)
            }
            guard !restarted else { return }
            withLiveCore { rebuild = $0.router.prepareRestartRebuild() }
        case .rebuild(let prepared):
            rebuild = prepared
        }
        guard let rebuild else { return }
        openOffLock(rebuild) { core in core.router.finishRestart(rebuild) }
    }

    /// The driver thread is parked: the engine was idle at its last update (tests).
    var isDriverParked: Bool {
        readCore { $0.isDriverAsleep }
    }
}
