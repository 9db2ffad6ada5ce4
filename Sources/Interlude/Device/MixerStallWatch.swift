/// Decides, from readings of a running device's clock (ALC_SOFT_device_clock), when its mixer
/// stands still while time passes, and when it runs at real-time speed again.
///
/// Why: a PulseAudio server that stops taking samples (stopped by SIGSTOP, or starved on a
/// stalled machine) catches up all at once when it runs again. OpenAL Soft 1.19 makes its
/// stream with `prebuf = 0`, so the server's read index runs on through the gap, and what the
/// mixer produces in answer to the catch-up lands behind it and is never heard. A source that
/// plays through that burst loses as much audio as the stall lasted. The engine holds its
/// sources while the watch says stalled, so that the burst mixes silence, and plays them on,
/// from the frame they stood at, once the watch says running.
///
/// The watch is armed once the clock has been seen moving (a device that has not started yet,
/// or has just resumed, is not stalled). Stalled: the clock has not moved for
/// ``stallSeconds``. Then the clock's speed is judged over windows of ``windowSeconds``, and the
/// mixer runs again after either of:
/// - a window at real-time speed (``caughtUpSpeeds``) once the clock has made up the wall time it
///   stood still for, to within ``caughtUpSeconds``: the server caught up, the burst is over;
/// - ``calmSeconds`` of windows at no more than 1.1 times real-time speed (``calmSpeeds``),
///   caught up or not: a server that did not skip the time it stood still, so there is nothing
///   to wait for. A burst, however slow on a loaded machine, runs faster than that.
///
/// A server that caught up only part of the time (a burst, then calm windows while still behind:
/// pipewire-pulse) skipped the rest, and what the mixer makes lands behind where it plays, never
/// heard: the watch says ``Change/leftBehind(seconds:)`` and stays stalled, the engine starts the
/// output over on a new stream, and ``judgeAnew(clockSeconds:wallSeconds:)`` judges that from then on.
///
/// A stall is held only while the server may still run again. A mixer that stands still around
/// the time the audio server's connection dropped (``isLost(serverGoneWallSeconds:)``) never runs
/// again on that device: OpenAL Soft 1.24's native PipeWire backend (1.22 and later) reports no
/// disconnect when its server dies (ALC_CONNECTED stays true, and no ALC_SOFT_system_events event
/// comes), so without this the sources would be held for good.
struct MixerStallWatch {
    /// What a reading changed.
    enum Change: Equatable {
        /// The mixer has stood still for ``MixerStallWatch/stallSeconds``.
        case stalled
        /// After a stall, the mixer runs at real-time speed again.
        case running
        /// After a stall, the server caught up only part of the time it stood still, then went
        /// on at real time: it skipped the rest, and what the mixer produces lands that far
        /// behind where the server plays from, never heard. Still stalled: the output must
        /// start over, and the watch judges it from now.
        case leftBehind(seconds: Double)
    }

    /// How long the clock must stand still to be a stall: several periods of any backend, so a
    /// late period on a loaded machine is not one.
    static let stallSeconds = 0.25
    /// How far behind the wall time the clock may stay and count as caught up.
    static let caughtUpSeconds = 0.25
    /// The wall time over which a stalled mixer's speed is judged: many periods, so that a
    /// mixer writing whole periods reads as steady.
    static let windowSeconds = 0.3
    /// The clock's speed, against the wall clock's, of a caught-up mixer at real time.
    static let caughtUpSpeeds = 0.5...1.2
    /// The clock's speed of a mixer that is not catching up.
    static let calmSpeeds = 0.5...1.1
    /// How long a mixer must run calmly, caught up or not, to run again.
    static let calmSeconds = 0.9
    /// How long before the clock last moved the server's connection may have dropped and still
    /// take the stall with it: the mixer may finish a period or two after the server died, and
    /// the connection sees the socket close within milliseconds.
    static let serverGraceSeconds = 1.0

    /// The last clock reading, nil until the first.
    private var lastClockSeconds: Double?
    /// The clock has been seen moving since the watch began.
    private var isArmed = false
    /// When the clock last moved (wall seconds), while armed and not stalled.
    private var lastMoveWallSeconds = 0.0
    /// Stalled: when the clock stopped (wall time, and its value then).
    private var stall: (wallSeconds: Double, clockSeconds: Double)?
    /// Stalled: the window being judged opened at this wall time and clock.
    private var window: (wallSeconds: Double, clockSeconds: Double) = (0, 0)
    /// Stalled: the wall time the clock has run calmly for, in whole windows.
    private var calmWallSeconds = 0.0
    /// Stalled: a window ran faster than real time (the server catching up).
    private var sawCatchUp = false

    /// The mixer is held as stalled.
    var isStalled: Bool { stall != nil }

    /// Stalled, and the audio server went away (its connection dropped at wall time
    /// `serverGoneWallSeconds`) during the stall or at most ``serverGraceSeconds`` before the
    /// clock last moved: the device's output is gone with its server, a loss, not a stall to
    /// hold. A connection that dropped long before the stall (a server restarted while this
    /// mixer played on through it) says nothing of this one.
    func isLost(serverGoneWallSeconds: Double?) -> Bool {
        guard let stall, let serverGoneWallSeconds else { return false }
        return serverGoneWallSeconds >= stall.wallSeconds - Self.serverGraceSeconds
    }

    /// The device's output started over while stalled (a new stream after ``Change/leftBehind(seconds:)``):
    /// still stalled, judged from this reading on.
    mutating func judgeAnew(clockSeconds: Double, wallSeconds: Double) {
        guard stall != nil else { return }
        stall = (wallSeconds, clockSeconds)
        window = (wallSeconds, clockSeconds)
        lastClockSeconds = clockSeconds
        calmWallSeconds = 0
        sawCatchUp = false
    }

    /// Takes a reading; returns the change it made, if any.
    mutating func observe(clockSeconds: Double, wallSeconds: Double) -> Change? {
        defer { lastClockSeconds = clockSeconds }
        guard let last = lastClockSeconds else { return nil }
        let moved = clockSeconds != last
        guard isArmed else {
            isArmed = moved
            lastMoveWallSeconds = wallSeconds
            return nil
        }
        guard let stopped = stall else {
            if moved {
                lastMoveWallSeconds = wallSeconds
                return nil
            }
            guard wallSeconds - lastMoveWallSeconds >= Self.stallSeconds else { return nil }
            stall = (lastMoveWallSeconds, clockSeconds)
            window = (wallSeconds, clockSeconds)
            calmWallSeconds = 0
            sawCatchUp = false
            return .stalled
        }
        let elapsedSeconds = wallSeconds - window.wallSeconds
        guard elapsedSeconds >= Self.windowSeconds else { return nil }
        let speed = (clockSeconds - window.clockSeconds) / elapsedSeconds
        window = (wallSeconds, clockSeconds)
        calmWallSeconds = Self.calmSpeeds.contains(speed) ? calmWallSeconds + elapsedSeconds : 0
        sawCatchUp = sawCatchUp || speed > Self.caughtUpSpeeds.upperBound
        let behindSeconds = (wallSeconds - stopped.wallSeconds) - (clockSeconds - stopped.clockSeconds)
        let isCaughtUp = behindSeconds <= Self.caughtUpSeconds && Self.caughtUpSpeeds.contains(speed)
        guard isCaughtUp || calmWallSeconds >= Self.calmSeconds else { return nil }
        if !isCaughtUp && sawCatchUp {
            stall = (wallSeconds, clockSeconds)
            calmWallSeconds = 0
            sawCatchUp = false
            return .leftBehind(seconds: behindSeconds)
        }
        stall = nil
        lastMoveWallSeconds = wallSeconds
        return .running
    }
}
