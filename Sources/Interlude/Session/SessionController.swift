/// The audio session's procedures: an interruption's begin and end, `activate()`, resuming what
/// was held after an end, and when a snapshot is taken. It decides with ``AudioSession``, changes the context through
/// ``DeviceHost``, has ``HeldPlayback`` record, hold and resume what plays, and
/// ``SessionSnapshots`` write the snapshot.
final class SessionController {
    private let session: AudioSession
    private let host: DeviceHost
    private let gate: ALGate
    private let events: EventQueue
    /// What plays: recorded, paused and held at a begin, resumed at the end.
    private let playback: HeldPlayback
    private let snapshots: SessionSnapshots

    init(session: AudioSession, host: DeviceHost, gate: ALGate, events: EventQueue, playback: HeldPlayback,
         snapshots: SessionSnapshots) {
        self.session = session
        self.host = host
        self.gate = gate
        self.events = events
        self.playback = playback
        self.snapshots = snapshots
    }

    /// Active, or interrupted and why.
    var state: SessionState { session.state }

    /// Nothing holds the session (``state`` is `.active`), read without building the state.
    var isActive: Bool { session.isActive }

    // MARK: Interruptions

    /// The sources holding the session now, oldest first.
    var holders: [InterruptionSource] { session.holders }

    /// A begin from `source`. From active: record what plays, stop output, NULL the context,
    /// tell the game. `outlivesActivation`: the source observes its condition, and `activate()`
    /// keeps its hold. While interrupted: one more hold (nothing audible), or, from a source
    /// that already holds, absorbed.
    func begin(reason: InterruptionReason, source: InterruptionSource, outlivesActivation: Bool = false) {
        guard session.isActive else {
            switch session.begin(reason: reason, source: source, outlivesActivation: outlivesActivation) {
            case .absorbed, .began: events.emit(.absorbed(reason: reason))
            case .holdAdded: events.emit(.holdAdded(reason: reason, source: source))
            }
            return
        }
        // 0-2. A one-shot played out is over; record every playing voice and stream at the
        // frame OpenAL reached, and stop output: pause all their sources in one call.
        playback.recordAndPause()
        let held = playback.hold()
        _ = session.begin(reason: reason, source: source, outlivesActivation: outlivesActivation)
        // 2b, 3. Pause the device where it can be, suspend the context and make NULL current.
        host.deactivate()
        // 4. Tell the game: began, then where the soundtrack was held.
        events.emit(.began(reason: reason, source: source))
        for event in held { events.emit(event) }
        snapshots.saveIfConfigured()
    }

    /// An end from `source`. From a source that holds nothing: ignored. While other sources
    /// (or the lost device) still hold the session: that hold is let go, nothing audible. The
    /// last hold: restore the context, resume what the policy and the tracked commands say,
    /// tell the game. The session is active only once the context is current again: if it
    /// cannot be made current, the session stays interrupted, output stays stopped, and
    /// ``SessionEvent/reactivationFailed(message:)`` says why; a later end or activate tries again.
    func end(shouldResume: Bool, source: InterruptionSource) {
        let caller = "endInterruption(shouldResume: \(shouldResume), source: \(source))"
        switch session.end(source: source, shouldResume: shouldResume, by: caller) {
        case .notHeld:
            events.emit(.ignored)
        case .released:
            events.emit(.holdReleased(source: source))
        case .last(let resumesHeld):
            guard let summary = reactivate(resumesHeld: resumesHeld, caller: caller) else { return }
            events.emit(.ended(shouldResume: shouldResume, resumed: summary, source: source))
        }
    }

    /// `activate()`: the game is back (the foreground, a play button) and ends every hold given
    /// through its own calls, as an end with shouldResume. It cannot end a device loss, nor the
    /// hold of a source that still observes its condition (a phone stream still playing): those
    /// stay (``SessionEvent/holdKept(source:)``), the others are let go, and the session waits.
    func activate() {
        guard !session.isActive else {
            events.emit(.ignored)
            return
        }
        let (released, kept) = session.releaseForActivation()
        if session.isDeviceLost || !kept.isEmpty {
            if released.isEmpty && kept.isEmpty { events.emit(.ignored) }
            for source in released { events.emit(.holdReleased(source: source)) }
            for source in kept { events.emit(.holdKept(source: source)) }
            return
        }
        guard let summary = reactivate(resumesHeld: true, caller: "activate()") else { return }
        events.emit(.activated(resumed: summary))
    }

    /// Makes the context current again and, once it is, the session active, and resumes.
    /// Returns nil when the context would not go current (the session stays interrupted).
    private func reactivate(resumesHeld: Bool, caller: String) -> ResumeSummary? {
        do {
            try host.reactivate()
        } catch {
            gate.count(error, in: caller)
            host.deactivate()
            events.emit(.reactivationFailed(message: "\(caller): \(error)"))
            return nil
        }
        session.markActive()
        return playback.resume(resumesHeld: resumesHeld)
    }
}
