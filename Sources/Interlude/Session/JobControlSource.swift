import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Job control as an interruption source (opt-in, ``SoundEngine/Configuration/handlesJobControl``).
///
/// Ctrl-Z sends SIGTSTP: the engines it watches save state and interrupt (reason
/// `jobControl`), then the handler's own thread stops the process with SIGSTOP. `fg` sends
/// SIGCONT, which lets that thread go on: it ends the interruption with shouldResume, and the
/// soundtrack resumes where it was. Ending there, not in a SIGCONT handler, does not depend on
/// which thread the kernel hands SIGCONT to (a thread that cannot run its handler soon, or a
/// game's own SIGCONT handler, would otherwise leave the game silent).
final class JobControlSource: Sendable {
    /// Signals are process-wide, so there is one source for the process.
    static let shared = JobControlSource()

    private struct State {
        var sinks: [ObjectIdentifier: WeakSink] = [:]
        /// SIGTSTP's source, made on first use and kept for the process's life.
        var stopSource: (any DispatchSourceSignal)?
    }

    private struct WeakSink {
        weak var sink: (any SessionSink)?
    }

    private let state = AnnotatedMutex(State())
    private let queue = DispatchQueue(label: "Interlude job control")

    /// Starts watching for `sink` (an engine), installing the SIGTSTP handler on first use.
    func attach(_ sink: any SessionSink) {
        state.withLock { state in
            state.sinks[ObjectIdentifier(sink)] = WeakSink(sink: sink)
            guard state.stopSource == nil else { return }
            // SIGTSTP is ignored at the kernel level so that only the dispatch source sees it;
            // the process is then stopped by SIGSTOP once state is saved.
            signal(SIGTSTP, SIG_IGN)
            let stopSource = DispatchSource.makeSignalSource(signal: SIGTSTP, queue: queue)
            stopSource.setEventHandler { [self] in
                for sink in liveSinks() { sink.beginOwnInterruption(reason: .jobControl, source: .jobControl) }
                // Sent to this thread, SIGSTOP stops the process before raise returns; it
                // returns once SIGCONT has continued it.
                raise(SIGSTOP)
                // Job control's own hold, whoever else holds too: a Ctrl-Z during a device loss
                // leaves the session's reason at deviceLost, and the hold must still go on fg.
                for sink in liveSinks() where sink.interruptionHolders.contains(.jobControl) {
                    sink.endOwnInterruption(source: .jobControl)
                }
            }
            stopSource.resume()
            state.stopSource = stopSource
        }
    }

    /// Stops watching for `sink`; the handler stays for the process's other engines.
    func detach(_ sink: any SessionSink) {
        state.withLock { state in
            state.sinks[ObjectIdentifier(sink)] = nil
        }
    }

    private func liveSinks() -> [any SessionSink] {
        state.withLock { state in state.sinks.values.compactMap(\.sink) }
    }
}
