/// Where engine events go: a callback and any number of AsyncStreams.
///
/// A reference of its own, apart from the engine, so that a thread that works for the engine
/// without holding it (the ``SnapshotWriter``) can deliver events too, even while the engine is
/// being released.
final class EventSinks: Sendable {
    private let sinks = AnnotatedMutex(Sinks())

    private struct Sinks {
        var handler: (@Sendable (EngineEvent) -> Void)?
        var continuations: [Int: AsyncStream<EngineEvent>.Continuation] = [:]
        var nextContinuationID = 0
    }

    /// Hands `events` to every stream, then to the callback outside this lock (so the callback
    /// may call the engine). Call it with the engine lock released. Inlined for its early return:
    /// most engine calls raise no event, and then they pay no call here.
    @inline(__always)
    func deliver(_ events: [EngineEvent]) {
        guard !events.isEmpty else { return }
        deliverRaised(events)
    }

    @inline(never)
    private func deliverRaised(_ events: [EngineEvent]) {
        let handler = sinks.withLock { sinks in
            for event in events {
                for continuation in sinks.continuations.values { continuation.yield(event) }
            }
            return sinks.handler
        }
        if let handler { for event in events { handler(event) } }
    }

    /// Adds a stream; returns its id for ``remove(_:)``.
    func add(_ continuation: AsyncStream<EngineEvent>.Continuation) -> Int {
        sinks.withLock { sinks in
            defer { sinks.nextContinuationID += 1 }
            sinks.continuations[sinks.nextContinuationID] = continuation
            return sinks.nextContinuationID
        }
    }

    /// Removes a stream that ended.
    func remove(_ id: Int) {
        sinks.withLock { $0.continuations[id] = nil }
    }

    /// Replaces the callback (nil: none).
    func setHandler(_ handler: (@Sendable (EngineEvent) -> Void)?) {
        sinks.withLock { $0.handler = handler }
    }

    /// Ends every stream (shutdown). Outside this lock: ending a stream runs its termination
    /// handler, which removes it here (under the lock, a game's stream made shutdown trap on a
    /// recursive lock).
    func finish() {
        let ended = sinks.withLock { sinks in
            defer { sinks.continuations.removeAll() }
            return Array(sinks.continuations.values)
        }
        for continuation in ended { continuation.finish() }
    }
}
