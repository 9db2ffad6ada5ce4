extension SoundEngine {
    /// Creates an engine like ``init(configuration:)``, without blocking the caller while the
    /// device opens and its output comes up: the work runs on a thread of its own, and the
    /// caller suspends until the engine is ready, its output running. A game awaits it from a
    /// task and goes on drawing frames meanwhile; sounds played on the engine it returns are all
    /// heard, as after the blocking init.
    ///
    /// Throws what ``init(configuration:)`` throws. Not cancellable: a device being opened is
    /// opened to the end.
    ///
    /// ```swift
    /// let starting = Task { try await SoundEngine.start(configuration: .init(output: .systemDefault)) }
    /// // ... the game's frames go on; later, off the frame loop:
    /// let engine = try await starting.value
    /// ```
    public static func start(configuration: Configuration = Configuration()) async throws -> SoundEngine {
        try await withCheckedThrowingContinuation { continuation in
            // A thread of its own: the wait for the output (up to seconds on a sound server)
            // must not hold a thread of Swift's cooperative pool.
            do {
                try NamedThread.start("IL start") {
                    continuation.resume(with: Result { try SoundEngine(configuration: configuration) })
                }
            } catch {
                continuation.resume(throwing: error)
            }
        }
    }
}
