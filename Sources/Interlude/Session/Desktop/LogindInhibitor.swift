#if canImport(Glibc)
import Glibc
#endif
import Logging

/// Our "delay" inhibitor lock on sleep: the descriptor logind gave us. While it is open, logind
/// waits (up to its InhibitDelayMaxSec, 5 s by default) after PrepareForSleep(true) before the
/// machine sleeps; closing it lets sleep go ahead. Taken while the engine runs, released once an
/// interruption's state is saved, taken again after the wake. Watcher thread only.
final class LogindInhibitor {
    private let logger: Logger
    /// The lock's descriptor while held.
    private var descriptor: Int32?

    init(logger: Logger) {
        self.logger = logger
    }

    deinit {
        release()
    }

    /// True while the lock is held.
    var isHeld: Bool { descriptor != nil }

    /// Takes the lock, unless held already. A refusal (no logind, a policy) is logged: sleep
    /// then goes ahead without waiting for us, and the interruption still begins on the signal.
    func take(on bus: LogindBus) {
        guard descriptor == nil else { return }
        do {
            descriptor = try bus.inhibitSleep(why: "Saving the game's audio state before sleep")
            logger.debug("logind: sleep delay lock taken")
        } catch {
            logger.debug("logind: no sleep delay lock (\(error)); sleep will not wait for the audio state to be saved")
        }
    }

    /// Lets sleep go ahead: closes the lock's descriptor.
    func release() {
        guard let descriptor else { return }
        close(descriptor)
        self.descriptor = nil
    }
}
