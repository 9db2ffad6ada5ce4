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
        /// Events raised before the game attached anything (during the engine's creation, say:
        /// the output starting): kept for the first handler or stream attached.
        var early: [EngineEvent] = []
        var hasHadSink = false
    }

    /// The most events kept for a handler or stream not attached yet.
    private static let earlyEventLimit = 64

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
            if !sinks.hasHadSink {
                sinks.early.append(contentsOf: events.prefix(Self.earlyEventLimit - sinks.early.count))
            }
            return sinks.handler
        }
        if let handler { for event in events { handler(event) } }
    }

    /// Adds a stream; returns its id for ``remove(_:)``.
    /// The first stream added, before any handler, also gets the events raised before it.
    func add(_ continuation: AsyncStream<EngineEvent>.Continuation) -> Int {
        sinks.withLock { sinks in
            defer { sinks.nextContinuationID += 1 }
            if !sinks.hasHadSink {
                sinks.hasHadSink = true
                for event in sinks.early { continuation.yield(event) }
                sinks.early.removeAll()
            }
            sinks.continuations[sinks.nextContinuationID] = continuation
            return sinks.nextContinuationID
        }
    }

    /// Removes a stream that ended.
    func remove(_ id: Int) {
        sinks.withLock { $0.continuations[id] = nil }
    }

    /// Replaces the callback (nil: none). The first handler set, before any stream, is then
    /// called (outside this lock) with the events raised before it.
    func setHandler(_ handler: (@Sendable (EngineEvent) -> Void)?) {
        let early = sinks.withLock { sinks -> [EngineEvent] in
            sinks.handler = handler
            guard handler != nil, !sinks.hasHadSink else { return [] }
            sinks.hasHadSink = true
            defer { sinks.early.removeAll() }
            return sinks.early
        }
        if let handler { for event in early { handler(event) } }
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
