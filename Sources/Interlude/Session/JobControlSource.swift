import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Job control as an interruption source (opt-in, ``SoundEngine/Configuration/handlesJobControl``).
///
/// Ctrl-Z sends SIGTSTP: the engines it watches save state and interrupt (reason
/// `jobControl`), then the process really stops with SIGSTOP. `fg` sends SIGCONT: the
/// interruption ends with shouldResume, and the soundtrack resumes where it was.
final class JobControlSource: Sendable {
    /// Signals are process-wide, so there is one source for the process.
    static let shared = JobControlSource()

    private struct State {
        var engines: [ObjectIdentifier: WeakEngine] = [:]
        var sources: [any DispatchSourceSignal] = []
    }

    private struct WeakEngine {
        weak var engine: SoundEngine?
    }

    private let state = AnnotatedMutex(State())
    private let queue = DispatchQueue(label: "Interlude job control")

    /// Starts watching for `engine`, installing the signal handlers on first use.
    func attach(_ engine: SoundEngine) {
        state.withLock { state in
            state.engines[ObjectIdentifier(engine)] = WeakEngine(engine: engine)
            guard state.sources.isEmpty else { return }
            // SIGTSTP is ignored at the kernel level so that only the dispatch source sees it;
            // the process is then stopped by SIGSTOP once state is saved.
            signal(SIGTSTP, SIG_IGN)
            let stopSource = DispatchSource.makeSignalSource(signal: SIGTSTP, queue: queue)
            stopSource.setEventHandler { [self] in
                for engine in liveEngines() { engine.beginOwnInterruption(reason: .jobControl, source: .jobControl) }
                kill(getpid(), SIGSTOP)
            }
            let continueSource = DispatchSource.makeSignalSource(signal: SIGCONT, queue: queue)
            continueSource.setEventHandler { [self] in
                // Job control's own hold, whoever else holds too: a Ctrl-Z during a device loss
                // leaves the session's reason at deviceLost, and the hold must still go on fg.
                for engine in liveEngines() where engine.interruptionHolders.contains(.jobControl) {
                    engine.endOwnInterruption(source: .jobControl)
                }
            }
            stopSource.resume()
            continueSource.resume()
            state.sources = [stopSource, continueSource]
        }
    }

    /// Stops watching for `engine`; the handlers stay for the process's other engines.
    func detach(_ engine: SoundEngine) {
        state.withLock { state in
            state.engines[ObjectIdentifier(engine)] = nil
        }
    }

    private func liveEngines() -> [SoundEngine] {
        state.withLock { state in state.engines.values.compactMap(\.engine) }
    }
}
