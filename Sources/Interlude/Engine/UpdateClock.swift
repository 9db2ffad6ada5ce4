/// The engine's sense of time between updates: wall-clock instants on a real device, rendered
/// frames offline (so a render never depends on how fast the machine is).
final class UpdateClock {
    private let isOffline: Bool
    /// Updates run while active, for spreading periodic work across updates.
    @exclusivity(unchecked) private var updates = 0
    @exclusivity(unchecked) private var framesUntilUpdate = 0
    @exclusivity(unchecked) private var framesSinceUpdate = 0
    @exclusivity(unchecked) private var lastUpdateInstant: ContinuousClock.Instant?

    init(isOffline: Bool) {
        self.isOffline = isOffline
    }

    /// Updates run while active so far (wrapping).
    var updateCount: Int { updates }

    /// Counts an update that ran while active.
    func countUpdate() {
        updates &+= 1
    }

    /// Seconds since the last real-time update, and marks `now` as the latest.
    func advanceRealTime(to now: ContinuousClock.Instant) -> Double {
        let elapsed = lastUpdateInstant.map { (now - $0).seconds } ?? 0
        lastUpdateInstant = now
        return elapsed
    }

    /// Time since the last update: rendered frames offline, the clock on a real device.
    func secondsSinceUpdate(sampleRate: Int) -> Double {
        if isOffline { return Double(framesSinceUpdate) / Double(sampleRate) }
        return lastUpdateInstant.map { (ContinuousClock.now - $0).seconds } ?? 0
    }

    /// Offline: renders up to `frameCount` frames, no further than the next update after this
    /// one, and returns how many. Runs `update` (with the seconds since the last) first when one
    /// is due, every `intervalFrames`, then `mix` for the stretch (its length in frames).
    func renderStretch(frameCount: Int, intervalFrames: Int, sampleRate: Int,
                       update: (Double) -> Void, mix: (_ stretchFrames: Int) -> Void) -> Int {
        guard frameCount > 0 else { return 0 }
        if framesUntilUpdate == 0 {
            update(Double(framesSinceUpdate) / Double(sampleRate))
            framesUntilUpdate = intervalFrames
            framesSinceUpdate = 0
        }
        let stretchFrames = min(frameCount, framesUntilUpdate)
        mix(stretchFrames)
        framesUntilUpdate -= stretchFrames
        framesSinceUpdate += stretchFrames
        return stretchFrames
    }
}
