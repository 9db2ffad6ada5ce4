/// Where session events go: a callback and any number of AsyncStreams.
struct EventSinks {
    var handler: (@Sendable (SessionEvent) -> Void)?
    var continuations: [Int: AsyncStream<SessionEvent>.Continuation] = [:]
    var nextContinuationID = 0

    func yield(_ event: SessionEvent) {
        for continuation in continuations.values { continuation.yield(event) }
    }

    mutating func finish() {
        for continuation in continuations.values { continuation.finish() }
        continuations.removeAll()
    }
}
