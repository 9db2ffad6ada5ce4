import Dispatch

/// The devices an engine is opening off its lock (``OutputChanges``),
/// each counted from the start of its open until the core keeps it or it is closed.
/// ``SoundEngine/shutdown()`` closes it to new opens, then waits for those counted: when shutdown
/// returns, no device the engine opened off the lock is still open outside the core, and none
/// opens later. A process may exit then, and OpenAL Soft's library destructor frees the state
/// that an open or close still running on another thread would use.
final class OpensInFlight: Sendable {
    /// Once true, no open begins. An open is counted under the same lock, so every open that
    /// began is counted before ``closeAndWait(timeoutSeconds:)`` waits.
    private let isClosed = AnnotatedMutex(false)
    private let opens = DispatchGroup()

    /// An open is about to begin: counts it until ``end()``. False once closed: nothing may be
    /// opened, and nothing is counted.
    func begin() -> Bool {
        isClosed.withLock { isClosed in
            guard !isClosed else { return false }
            opens.enter()
            return true
        }
    }

    /// An open counted by ``begin()`` is over: its device is the core's, or closed.
    func end() {
        opens.leave()
    }

    /// Refuses every open from now on, and waits up to `timeoutSeconds` for those under way.
    /// Returns false when one is still under way (an open stuck on a frozen audio server).
    @discardableResult
    func closeAndWait(timeoutSeconds: Double) -> Bool {
        isClosed.withLock { $0 = true }
        return opens.wait(timeout: .now() + timeoutSeconds) == .success
    }
}
