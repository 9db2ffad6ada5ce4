/// The engine's sense of time between updates: the system clock on a real device, rendered
/// frames offline (so a render never depends on how fast the machine is).
///
/// Real time is ``BootInstant``'s nanoseconds, read without `ContinuousClock`'s instants: the
/// update runs a hundred times a second on the game's thread.
final class UpdateClock {
    private let isOffline: Bool
    /// Offline, the rate of the frames counted (the output's): ticks and frames since the last
    /// update become seconds at it.
    @exclusivity(unchecked) private var frameRate: Int
    /// Updates run while active, for work done every so many updates.
    @exclusivity(unchecked) private var updates = 0
    @exclusivity(unchecked) private var framesUntilUpdate = 0
    @exclusivity(unchecked) private var framesSinceUpdate = 0
    @exclusivity(unchecked) private var lastUpdateNanoseconds: Int64?
    /// Frames rendered so far (offline).
    @exclusivity(unchecked) private var renderedFrames: Int64 = 0

    /// - Parameter offlineSampleRate: the offline output's rate; nil on a real device.
    init(offlineSampleRate: Int?) {
        isOffline = offlineSampleRate != nil
        frameRate = offlineSampleRate ?? 48_000
    }

    /// Updates run while active so far (wrapping).
    var updateCount: Int { updates }

    /// Counts an update that ran while active.
    func countUpdate() {
        updates &+= 1
    }

    /// Seconds since the last real-time update, and marks now as the latest.
    func advanceRealTime() -> Double {
        let now = BootInstant.now.nanoseconds
        let elapsed = lastUpdateNanoseconds.map { Double(now - $0) * 1e-9 } ?? 0
        lastUpdateNanoseconds = now
        return elapsed
    }

    /// Marks now as the latest real-time update without one running: a parked driver's next
    /// update, or a voice made virtual before it, counts its time from here.
    func restartRealTime() {
        lastUpdateNanoseconds = BootInstant.now.nanoseconds
    }

    /// Time since the last update: rendered frames offline, the clock on a real device.
    func secondsSinceUpdate() -> Double {
        if isOffline { return Double(framesSinceUpdate) / Double(frameRate) }
        return lastUpdateNanoseconds.map { Double(BootInstant.now.nanoseconds - $0) * 1e-9 } ?? 0
    }

    /// The engine's own time now, in ticks: frames rendered so far offline (so a render never
    /// depends on the machine), `CLOCK_BOOTTIME` nanoseconds on a real device. For spans such
    /// as a cue's cooldown, through ``seconds(fromTicks:to:)``.
    func ticks() -> Int64 {
        isOffline ? renderedFrames : BootInstant.now.nanoseconds
    }

    /// The seconds from one ``ticks()`` reading to a later one.
    func seconds(fromTicks start: Int64, to end: Int64) -> Double {
        Double(end - start) / (isOffline ? Double(frameRate) : 1e9)
    }

    /// Offline: renders up to `frameCount` frames, no further than the next update after this
    /// one, and returns how many. Runs `update` (with the seconds since the last) first when one
    /// is due, every `intervalFrames`, then `mix` for the stretch (its length in frames). `limit`,
    /// asked after the update, may end the stretch sooner (never before its first frame).
    func renderStretch(frameCount: Int, intervalFrames: Int, sampleRate: Int,
                       update: (Double) -> Void, limit: () -> Int?, mix: (_ stretchFrames: Int) -> Void) -> Int {
        guard frameCount > 0 else { return 0 }
        frameRate = sampleRate
        if framesUntilUpdate == 0 {
            update(Double(framesSinceUpdate) / Double(sampleRate))
            framesUntilUpdate = intervalFrames
            framesSinceUpdate = 0
        }
        let stretchFrames = max(1, min(frameCount, framesUntilUpdate, limit() ?? .max))
        mix(stretchFrames)
        framesUntilUpdate -= stretchFrames
        framesSinceUpdate += stretchFrames
        renderedFrames += Int64(stretchFrames)
        return stretchFrames
    }
}
