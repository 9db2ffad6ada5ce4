#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The engines of this process not yet shut down, so that a program that ends without
/// calling ``SoundEngine/shutdown()`` (returning from main, or calling `exit`, with an engine
/// still held, say in a global) still closes their devices: at exit each is shut down before
/// OpenAL Soft's own clean-up runs, which would otherwise report every device left open.
/// Engines are held weakly: one dropped without shutdown() shuts down in its deinit.
enum LiveEngines {
    /// One engine, held weakly.
    private struct Entry: Sendable {
        weak var engine: SoundEngine?
    }

    /// The live engines by their IDs; whether the exit hook is installed.
    private static let state = Mutex<(entries: [Int: Entry], isHooked: Bool)>(([:], false))

    /// Counts `engine` as live, installing the exit hook with the first one.
    static func add(_ engine: SoundEngine) {
        let needsHook = state.withLock { state -> Bool in
            state.entries[engine.engineID] = Entry(engine: engine)
            defer { state.isHooked = true }
            return !state.isHooked
        }
        // Installed after OpenAL Soft was loaded (the engine opened its device), so that it
        // runs before OpenAL Soft's clean-up: exit runs its handlers newest first.
        if needsHook { atexit { LiveEngines.shutDownAll() } }
    }

    /// The engine `engineID` has shut down: called last by its shutdown().
    static func remove(_ engineID: Int) {
        _ = state.withLock { $0.entries.removeValue(forKey: engineID) }
    }

    /// Shuts down every engine still live, and waits (up to 5 s) for those shutting down on
    /// another thread: one released there last runs its deinit, and so its shutdown(), on
    /// that thread (its driver thread, say, mid-update), while this one exits. The exit hook.
    static func shutDownAll() {
        let engines = state.withLock { $0.entries.values.compactMap(\.engine) }
        for engine in engines { engine.shutdown() }
        let deadline = BootInstant.now
        while !state.withLock({ $0.entries.isEmpty }), BootInstant.now.seconds(since: deadline) < exitWaitSeconds {
            usleep(1_000)
        }
    }

    /// How long the exit hook waits for shutdowns under way on other threads.
    static let exitWaitSeconds = 5.0
}
