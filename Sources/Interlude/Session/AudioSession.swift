import Logging

/// The audio session: the interruption state machine, and the only code that makes a context
/// current or sets it to NULL.
///
/// It decides; the engine does the bookkeeping of voices and streams in between. Begin: the
/// engine records what is playing and pauses the sources, then ``deactivate(_:)`` pauses the
/// device, suspends the context and makes NULL current. End: ``reactivate(_:)`` makes the context
/// current, processes it and resumes the device, then the engine replays what the policy says.
final class AudioSession {
    /// Live, or interrupted and why.
    private(set) var state: SessionState = .active
    /// What an end resumes.
    let policy: ResumePolicy
    private let logger: Logger

    init(policy: ResumePolicy, logger: Logger) {
        self.policy = policy
        self.logger = logger
    }

    /// True while interrupted for the loss of the device: only a rebuild ends that.
    var isDeviceLost: Bool { state == .interrupted(reason: .deviceLost) }

    // MARK: State machine

    /// Records a begin. Returns false, and logs, when it is absorbed by an interruption
    /// already under way.
    func begin(reason: InterruptionReason) -> Bool {
        if case .interrupted(let current) = state {
            logger.info("interruption begin (\(reason)) absorbed: already interrupted (\(current))")
            return false
        }
        state = .interrupted(reason: reason)
        logger.info("interruption began (\(reason))")
        return true
    }

    /// The device was lost: whatever interruption was under way becomes a device loss.
    func markDeviceLost() {
        state = .interrupted(reason: .deviceLost)
        logger.warning("output device lost")
    }

    /// Records an end. Returns nil, and logs, when there is nothing it may end: the session is
    /// active, or the device is gone (only a rebuild ends that). Otherwise returns whether
    /// what was playing resumes under the policy.
    func end(shouldResume: Bool, by caller: String) -> Bool? {
        switch state {
        case .active:
            logger.info("\(caller) ignored: the session is active")
            return nil
        case .interrupted(reason: .deviceLost):
            logger.info("\(caller) ignored: the device is lost; the session resumes when it is rebuilt")
            return nil
        case .interrupted(let reason):
            state = .active
            logger.info("interruption (\(reason)) ended by \(caller), shouldResume \(shouldResume)")
            return policy == .alwaysResume || shouldResume
        }
    }

    /// Records the end of a device loss: a new device is open.
    func endDeviceLoss() {
        state = .active
        logger.info("output device rebuilt")
    }

    // MARK: Context

    /// Runs `body` with the process-wide context lock held and, while the session is active, the
    /// engine's context current. While interrupted, no context is made current.
    func withContext<Result>(_ device: ALDevice?, _ body: () throws -> Result) throws -> Result {
        try ALContextLock.run {
            if state.isActive, let device, device.isOpen, !device.isContextCurrent {
                try device.makeContextCurrent()
            }
            return try body()
        }
    }

    /// Begin, after the sources are paused: pauses the device where ALC_SOFT_pause_device works,
    /// suspends the context and sets the current context to NULL.
    func deactivate(_ device: ALDevice?) {
        ALContextLock.run {
            if let device, device.isOpen {
                if !device.pause() {
                    logger.debug("device \(device.name) cannot pause; its paused sources keep it silent")
                }
                device.suspendContext()
            }
            ALDevice.clearCurrentContext()
        }
    }

    /// End: makes the prior context current, processes it, and resumes the device.
    func reactivate(_ device: ALDevice) throws {
        try ALContextLock.run {
            try device.makeContextCurrent()
            device.processContext()
            device.resume()
        }
    }

    /// Makes a new device's context current (at open and after a rebuild).
    func attach(_ device: ALDevice) throws {
        try ALContextLock.run { try device.makeContextCurrent() }
    }

    /// Frees every AL name on `device` and closes it. With `isReachable` false (the device is
    /// already gone) the names go with the context, which OpenAL frees.
    func tearDown(_ device: ALDevice, isReachable: Bool) {
        ALContextLock.run {
            if isReachable, (try? device.makeContextCurrent()) != nil {
                device.deleteAllNames()
            }
            ALDevice.clearCurrentContext()
            device.close()
        }
    }
}
