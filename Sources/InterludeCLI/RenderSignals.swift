import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The signals an offline render answers. SIGINT and SIGTERM ask it to stop: the render notices
/// between two blocks, removes its temporary files and exits 128 + the signal (130, 143).
/// SIGCONT (after a SIGTSTP, which stops the process as usual) makes the progress bar draw
/// itself again where it was. The handlers only store into atomics, which is async-signal-safe.
enum RenderSignals {
    /// The stopping signal received, or 0.
    private static let stopSignal = Atomic<Int32>(0)
    /// A SIGCONT arrived since the last ``takeContinued()``.
    private static let continued = Atomic<Bool>(false)

    /// Installs the handlers.
    static func install() {
        for stopping in [SIGINT, SIGTERM] {
            signal(stopping) { received in RenderSignals.stopSignal.store(received, ordering: .relaxed) }
        }
        signal(SIGCONT) { _ in RenderSignals.continued.store(true, ordering: .relaxed) }
    }

    /// The stopping signal received, if any.
    static var received: Int32? {
        let value = stopSignal.load(ordering: .relaxed)
        return value == 0 ? nil : value
    }

    /// True once after each SIGCONT.
    static func takeContinued() -> Bool {
        continued.exchange(false, ordering: .relaxed)
    }

    /// The signal's name, for the one line the render prints.
    static func name(of signal: Int32) -> String {
        switch signal {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        default: "signal \(signal)"
        }
    }
}
