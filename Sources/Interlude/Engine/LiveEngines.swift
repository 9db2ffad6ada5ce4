#if canImport(Glibc)
import Glibc
#endif
import Dispatch

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

    private struct State {
        var entries: [Int: Entry] = [:]
        /// The process that installed the exit hook: a forked child inherits the hook, not the
        /// engines' threads, and does nothing at exit.
        var hookPID: pid_t?
    }

    private static let state = AnnotatedMutex<State>(State())

    /// How long the exit hook waits, in all, for the engines to shut down.
    static let exitWaitSeconds = 5.0

    /// Counts `engine` as live, installing the exit hook with the first one.
    static func add(_ engine: SoundEngine) {
        let needsHook = state.withLock { state -> Bool in
            state.entries[engine.engineID] = Entry(engine: engine)
            guard state.hookPID == nil else { return false }
            state.hookPID = getpid()
            return true
        }
        // OpenAL Soft's clean-up is a destructor of the library, linked at load: exit runs
        // handlers installed with atexit during main before it.
        if needsHook { atexit { LiveEngines.shutDownAll() } }
    }

    /// The engine `engineID` has shut down: called last by its shutdown().
    static func remove(_ engineID: Int) {
        _ = state.withLock { $0.entries.removeValue(forKey: engineID) }
    }

    /// The exit hook: shuts down every engine still live and waits for those shutting down on
    /// other threads (one released last on its driver thread runs its deinit there), within
    /// ``exitWaitSeconds`` in all. An engine whose driver thread is the one exiting shuts down
    /// here; the others on a thread of their own, so that an exit that cannot wait for them (from
    /// inside an engine call, say a signal handler, or from a thread their shutdown waits for)
    /// goes on after the deadline instead of hanging.
    static func shutDownAll() {
        let (engines, hookPID) = state.withLock { state in (state.entries.values.compactMap(\.engine), state.hookPID) }
        guard hookPID == getpid() else { return }
        var elsewhere: [SoundEngine] = []
        for engine in engines {
            if engine.isOnDriverThread { engine.shutdown() } else { elsewhere.append(engine) }
        }
        let others = elsewhere
        let done = DispatchSemaphore(value: 0)
        let shutDownOthers: @Sendable () -> Void = {
            for engine in others { engine.shutdown() }
            let started = BootInstant.now
            while !state.withLock({ $0.entries.isEmpty }), BootInstant.now.seconds(since: started) < exitWaitSeconds {
                usleep(1_000)
            }
            done.signal()
        }
        do {
            try NamedThread.start("Interlude exit", shutDownOthers)
        } catch {
            shutDownOthers()
        }
        _ = done.wait(timeout: .now() + exitWaitSeconds)
    }
}
