import Synchronization

/// The process-wide lock around OpenAL's current context.
///
/// `alcMakeContextCurrent` is global to the process and AL errors are per context, so every
/// engine does its AL work holding this lock, with its own context made current inside it.
/// Taken inside an engine's own lock, never the other way round.
enum ALContextLock {
    private static let mutex = AnnotatedMutex<Void>(())

    /// Runs `body` holding the lock.
    static func run<Result>(_ body: () throws -> Result) rethrows -> Result {
        try mutex.withLock { _ in try body() }
    }
}
