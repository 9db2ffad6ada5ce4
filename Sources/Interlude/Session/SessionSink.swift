/// What an interruption source of the engine's own (job control, logind) may ask of the engine
/// it watches for: begin and end its hold, see who holds, and check the device after a wake.
/// The sources hold it weakly, and know nothing else of the engine.
protocol SessionSink: AnyObject, Sendable {
    /// Begins `source`'s hold. `outlivesActivation`: the source observes its condition, and
    /// ``SoundEngine/activate()`` keeps its hold.
    func beginOwnInterruption(reason: InterruptionReason, source: InterruptionSource, outlivesActivation: Bool)
    /// Ends `source`'s hold, with shouldResume.
    func endOwnInterruption(source: InterruptionSource)
    /// The sources holding the session now.
    var interruptionHolders: [InterruptionSource] { get }
    /// Makes a real device that went away meanwhile a loss now (after a wake).
    func loseDeviceIfDisconnected()
}

extension SessionSink {
    /// Begins `source`'s hold, one that ``SoundEngine/activate()`` ends.
    func beginOwnInterruption(reason: InterruptionReason, source: InterruptionSource) {
        beginOwnInterruption(reason: reason, source: source, outlivesActivation: false)
    }
}
