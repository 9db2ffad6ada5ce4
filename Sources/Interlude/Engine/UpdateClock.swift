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

    /// Offline: renders `frameCount` frames, running `update` (with the seconds since the last)
    /// every `intervalFrames`, and `mix` for each stretch between updates (its offset in frames
    /// into the render and its length).
    func render(frameCount: Int, intervalFrames: Int, sampleRate: Int,
                update: (Double) -> Void, mix: (_ offsetFrames: Int, _ chunkFrames: Int) -> Void) {
        var renderedFrames = 0
        while renderedFrames < frameCount {
            if framesUntilUpdate == 0 {
                update(Double(framesSinceUpdate) / Double(sampleRate))
                framesUntilUpdate = intervalFrames
                framesSinceUpdate = 0
            }
            let chunkFrames = min(frameCount - renderedFrames, framesUntilUpdate)
            mix(renderedFrames, chunkFrames)
            renderedFrames += chunkFrames
            framesUntilUpdate -= chunkFrames
            framesSinceUpdate += chunkFrames
        }
    }
}
