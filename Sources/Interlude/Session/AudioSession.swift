import Logging

/// The audio session's state machine: who holds it interrupted and why, and what an end resumes
/// under the policy. Each source holds on its own; the session is active while none holds it.
/// The loss of the device is one more hold, which only a rebuild releases. It only decides:
/// ``SessionController`` carries out the procedure, and ``DeviceHost`` changes the current
/// context.
final class AudioSession {
    /// The holds, in the order they began. `outlivesActivation`: the source still observes its
    /// condition (a phone stream playing), so `activate()` cannot end the hold; only its source can.
    @exclusivity(unchecked) private var holds: [(source: InterruptionSource, reason: InterruptionReason, outlivesActivation: Bool)] = []
    /// The device is lost: a hold of its own, apart from the sources' (a scene may name any
    /// source, "device" included).
    @exclusivity(unchecked) private var deviceLost = false
    /// What an end resumes.
    private let policy: ResumePolicy
    private let logger: Logger
    /// An offline engine's device comes and goes only as its render scripts it.
    private let isOffline: Bool

    init(policy: ResumePolicy, logger: Logger, isOffline: Bool) {
        self.policy = policy
        self.logger = logger
        self.isOffline = isOffline
    }

    /// How a change of the session is logged: at debug when the game made it itself (its own
    /// interruptions, an offline render's scripted device loss), at info otherwise. A game that
    /// raises an interruption knows of it; the log is for what the player's desktop did.
    private func level(for source: InterruptionSource) -> Logger.Level {
        source == .game || isOffline ? .debug : .info
    }

    /// Live, or interrupted and why: the device loss while it lasts, otherwise the reason of the
    /// oldest hold.
    var state: SessionState {
        if deviceLost { return .interrupted(reason: .deviceLost) }
        return holds.first.map { .interrupted(reason: $0.reason) } ?? .active
    }

    /// True while nothing holds the session: ``state`` is `.active`. Read by every setter, so it
    /// builds no state value.
    var isActive: Bool { !deviceLost && holds.isEmpty }

    /// True while interrupted for the loss of the device: only a rebuild ends that.
    var isDeviceLost: Bool { deviceLost }

    /// The sources holding the session now, oldest first (the device last, while it is lost).
    var holders: [InterruptionSource] {
        holds.map(\.source) + (deviceLost ? [.device] : [])
    }

    /// What a begin did.
    enum BeginOutcome: Equatable {
        /// The session went from active to interrupted.
        case began
        /// Another source already held it: one more hold, nothing audible.
        case holdAdded
        /// This source already held it: nothing changed.
        case absorbed
    }

    /// Records a begin from `source`; with `outlivesActivation`, `activate()` keeps the hold.
    func begin(reason: InterruptionReason, source: InterruptionSource, outlivesActivation: Bool = false) -> BeginOutcome {
        if holds.contains(where: { $0.source == source }) {
            logger.log(level: level(for: source), "interruption begin (\(reason), \(source)) absorbed: \(source) already holds the session")
            return .absorbed
        }
        let wasActive = isActive
        holds.append((source, reason, outlivesActivation))
        logger.log(level: level(for: source), wasActive ? "interruption began (\(reason), \(source))" : "interruption hold added (\(reason), \(source))")
        return wasActive ? .began : .holdAdded
    }

    /// What an end from a source would do.
    enum EndOutcome: Equatable {
        /// The source holds nothing: ignored.
        case notHeld
        /// The source let go and others still hold: nothing audible.
        case released
        /// It is the last hold: the session becomes active once the context is current again
        /// (``markActive()``); `resumesHeld` says whether what was held plays again.
        case last(resumesHeld: Bool)
    }

    /// Weighs an end from `source`. A hold that is not the last is released at once; the last
    /// is released only by ``markActive()``, once the context is current again.
    func end(source: InterruptionSource, shouldResume: Bool, by caller: String) -> EndOutcome {
        guard let index = holds.firstIndex(where: { $0.source == source }) else {
            logger.log(level: level(for: source), "\(caller) ignored: \(source) holds no interruption")
            return .notHeld
        }
        if holds.count > 1 || deviceLost {
            holds.remove(at: index)
            logger.log(level: level(for: source), "\(caller): \(source) let go; still held by \(holders.map(\.rawValue).joined(separator: ", "))")
            return .released
        }
        logger.log(level: level(for: source), "interruption ended by \(caller), shouldResume \(shouldResume)")
        return .last(resumesHeld: policy == .alwaysResume || shouldResume)
    }

    /// `activate()`: the holds whose end can be lost (the game's, job control's) are let go,
    /// and those of sources that still observe their condition are kept, as is the device loss.
    /// While a hold stays (kept, or the device lost), the released ones are removed now;
    /// otherwise they go with ``markActive()`` once the context is current again. Returns the
    /// sources let go and those kept.
    func releaseForActivation() -> (released: [InterruptionSource], kept: [InterruptionSource]) {
        let released = holds.filter { !$0.outlivesActivation }.map(\.source)
        let kept = holds.filter(\.outlivesActivation).map(\.source)
        if deviceLost || !kept.isEmpty {
            holds.removeAll { !$0.outlivesActivation }
            for source in kept { logger.info("activate(): \(source) still observes its condition and keeps its hold") }
        }
        return (released, kept)
    }

    /// The context is current again: every hold is gone and the session is active.
    func markActive() {
        holds.removeAll()
    }

    /// The device was lost: one more hold, which only ``endDeviceLoss()`` releases. Returns true
    /// when the session was active.
    func markDeviceLost() -> Bool {
        let wasActive = isActive
        deviceLost = true
        logger.log(level: isOffline ? .debug : .warning, "output device lost")
        return wasActive
    }

    /// A new device is open. Returns true when no other source holds the session: it is active.
    func endDeviceLoss() -> Bool {
        deviceLost = false
        logger.log(level: isOffline ? .debug : .info, "output device rebuilt\(holds.isEmpty ? "" : "; still held by \(holders.map(\.rawValue).joined(separator: ", "))")")
        return holds.isEmpty
    }
}
