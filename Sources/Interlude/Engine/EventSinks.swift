/// Where session events go: a callback and any number of AsyncStreams.
struct EventSinks {
    private var handler: (@Sendable (SessionEvent) -> Void)?
    private var continuations: [Int: AsyncStream<SessionEvent>.Continuation] = [:]
    private var nextContinuationID = 0

    /// Hands `events` to every stream and returns the callback, for the caller to call outside
    /// the lock.
    func yield(_ events: [SessionEvent]) -> (@Sendable (SessionEvent) -> Void)? {
        for event in events {
            for continuation in continuations.values { continuation.yield(event) }
        }
        return handler
    }

    /// Adds a stream; returns its id for ``remove(_:)``.
    mutating func add(_ continuation: AsyncStream<SessionEvent>.Continuation) -> Int {
        defer { nextContinuationID += 1 }
        continuations[nextContinuationID] = continuation
        return nextContinuationID
    }

    /// Removes a stream that ended.
    mutating func remove(_ id: Int) {
        continuations[id] = nil
    }

    /// Replaces the callback (nil: none).
    mutating func setHandler(_ handler: (@Sendable (SessionEvent) -> Void)?) {
        self.handler = handler
    }

    /// Ends every stream (shutdown).
    mutating func finish() {
        for continuation in continuations.values { continuation.finish() }
        continuations.removeAll()
    }
}
