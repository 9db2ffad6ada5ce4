import Synchronization

/// Pauses a real device's output while the engine has nothing to play (ALC_SOFT_pause_device),
/// so that OpenAL Soft's mixer stops mixing silence, and runs it again when there is sound.
///
/// Why off the engine lock: pausing waits for the backend (on PulseAudio, a round trip that
/// corks the stream), so the driver thread pauses and resumes with the engine lock released.
/// Every pause and resume of the device goes through the one mutex here, an interruption's
/// included, and an idle pause decided under the engine lock is carried out only if nothing
/// gave the engine work, and no interruption began or ended, since (``noteWork()``): a pause
/// never lands after the play, or the interruption's end, that should have kept the output
/// running. A frozen server that never answers the pause holds the driver in it until the
/// server runs again; the driver does not pause while its stall watch sees the mixer stand
/// still, and nothing the engine reads under its lock waits on the device meanwhile (the
/// device's refresh rate is read once, at open).
///
/// One per installed device. ``retire()``, before the device closes, waits for a pause or
/// resume under way and makes every later one do nothing.
///
/// `@unchecked Sendable`: the `ALDevice` it holds is not Sendable; it is only touched under
/// ``state``'s mutex, and closed only after ``retire()``.
final class IdleOutputPause: @unchecked Sendable {
    /// What the driver does with the output once its update has released the engine lock.
    enum Step: Sendable {
        /// Pause the output, unless a call gave the engine work since the token was read.
        case pause(IdleOutputPause, workToken: Int)
        /// Run the output again.
        case resume(IdleOutputPause)

        /// Carries the step out; off the engine lock.
        func run() {
            switch self {
            case .pause(let pause, let token): pause.pauseIfStillIdle(token: token)
            case .resume(let pause): pause.resumeIfPausedForIdle()
            }
        }
    }

    /// ``retire()`` was called: the device is closing. Under ``state``.
    private let state = AnnotatedMutex(false)
    /// Touched only with ``state``'s mutex held.
    private let device: ALDevice
    /// The output is paused because the engine was idle (not by an interruption): written
    /// under ``state``, read lock-free.
    private let pausedForIdle = Atomic<Bool>(false)
    /// Counts the calls that gave an idle engine work, and the interruptions' pauses and
    /// resumes; an idle pause decided at an older count is not carried out.
    private let work = Atomic<Int>(0)

    init(device: ALDevice) {
        self.device = device
    }

    /// The output is paused because the engine was idle. Lock-free.
    var isPausedForIdle: Bool { pausedForIdle.load(ordering: .acquiring) }

    /// A call gave the engine work: an idle pause decided before it is dropped. Any thread,
    /// lock-free.
    func noteWork() {
        work.wrappingAdd(1, ordering: .acquiringAndReleasing)
    }

    /// The token an idle pause is decided with (see ``pauseIfStillIdle(token:)``).
    var workToken: Int { work.load(ordering: .acquiring) }

    /// Pauses the output, unless something gave the engine work since `token` was read, or it
    /// is paused already. Off the engine lock. Returns whether it paused it.
    @discardableResult
    func pauseIfStillIdle(token: Int) -> Bool {
        state.withLock { isRetired in
            guard !isRetired, !isPausedForIdle, work.load(ordering: .acquiring) == token, device.pause() else { return false }
            pausedForIdle.store(true, ordering: .releasing)
            return true
        }
    }

    /// Runs the output again if it was paused for idleness. Off the engine lock. Returns
    /// whether it resumed it.
    @discardableResult
    func resumeIfPausedForIdle() -> Bool {
        state.withLock { isRetired in
            guard !isRetired, isPausedForIdle else { return false }
            device.resume()
            pausedForIdle.store(false, ordering: .releasing)
            return true
        }
    }

    /// An interruption begins: pauses the output, idle or not; an idle pause or resume decided
    /// before is dropped (the interruption's end runs the output again). Returns false where
    /// the device cannot be paused (the paused sources keep it silent).
    func pauseForInterruption() -> Bool {
        state.withLock { isRetired in
            noteWork()
            pausedForIdle.store(false, ordering: .releasing)
            return !isRetired && device.pause()
        }
    }

    /// An interruption ends: runs the output again, whether the interruption or idleness
    /// paused it; an idle pause decided before is dropped.
    func resumeAfterInterruption() {
        state.withLock { isRetired in
            noteWork()
            guard !isRetired else { return }
            device.resume()
            pausedForIdle.store(false, ordering: .releasing)
        }
    }

    /// The device is about to close: waits for a pause or resume under way; every later call
    /// does nothing.
    func retire() {
        state.withLock { isRetired in
            isRetired = true
        }
    }
}
