import Synchronization

/// Pauses a real device's output while the engine has nothing to play (ALC_SOFT_pause_device),
/// so that OpenAL Soft's mixer stops mixing silence, and runs it again when there is sound.
///
/// Why off the engine lock: pausing waits for the backend (on PulseAudio, a round trip that
/// corks the stream, which a frozen server never answers), so the driver thread pauses and
/// resumes with the engine lock released. Every pause and resume of the device goes through
/// the one mutex here, an interruption's included, and an idle pause decided under the engine
/// lock is carried out only if no call gave the engine work since (``noteWork()``): a pause
/// never lands after the play that should have kept the output running. A frozen server holds
/// the driver in its pause until the server runs again; nothing could be heard meanwhile, and
/// the game's calls do not wait for it; only an interruption that begins meanwhile does, with
/// the engine lock held, as its own pause of the device always did on a frozen server.
///
/// One per installed device. ``retire()``, before the device closes, waits for a pause or
/// resume under way and makes every later one do nothing.
///
/// `@unchecked Sendable`: the `ALDevice` it holds is not Sendable; it is only touched under
/// ``state``'s mutex, and closed only after ``retire()``.
final class IdleOutputPause: @unchecked Sendable {
    private struct State {
        /// ``retire()`` was called: the device is closing.
        var isRetired = false
        /// The output is paused because the engine was idle (not by an interruption).
        var isPausedForIdle = false
    }

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

    /// Touched only with ``state``'s mutex held.
    private let device: ALDevice
    private let state = AnnotatedMutex(State())
    /// Counts the calls that gave an idle engine work; an idle pause decided at an older count
    /// is not carried out.
    private let work = Atomic<Int>(0)

    init(device: ALDevice) {
        self.device = device
    }

    /// A call gave the engine work: an idle pause decided before it is dropped. Any thread,
    /// lock-free.
    func noteWork() {
        work.wrappingAdd(1, ordering: .releasing)
    }

    /// The token an idle pause is decided with (see ``pauseIfStillIdle(token:)``).
    var workToken: Int { work.load(ordering: .acquiring) }

    /// Pauses the output, unless a call gave the engine work since `token` was read, or it is
    /// paused already. Off the engine lock. Returns whether it paused it.
    @discardableResult
    func pauseIfStillIdle(token: Int) -> Bool {
        state.withLock { state in
            guard !state.isRetired, !state.isPausedForIdle, work.load(ordering: .acquiring) == token else { return false }
            guard device.pause() else { return false }
            state.isPausedForIdle = true
            return true
        }
    }

    /// Runs the output again if it was paused for idleness. Off the engine lock. Returns
    /// whether it resumed it.
    @discardableResult
    func resumeIfPausedForIdle() -> Bool {
        state.withLock { state in
            guard !state.isRetired, state.isPausedForIdle else { return false }
            device.resume()
            state.isPausedForIdle = false
            return true
        }
    }

    /// An interruption begins: pauses the output, idle or not. Returns false where the device
    /// cannot be paused (the paused sources keep it silent).
    func pauseForInterruption() -> Bool {
        state.withLock { state in
            !state.isRetired && device.pause()
        }
    }

    /// An interruption ends: runs the output again, whether the interruption or idleness
    /// paused it.
    func resumeAfterInterruption() {
        state.withLock { state in
            guard !state.isRetired else { return }
            device.resume()
            state.isPausedForIdle = false
        }
    }

    /// The device is about to close: waits for a pause or resume under way; every later call
    /// does nothing.
    func retire() {
        state.withLock { state in
            state.isRetired = true
        }
    }
}
