import Dispatch
import Logging

/// Writes an engine's snapshots to ``SoundEngine/Configuration/statePath`` off the engine lock.
///
/// The snapshot is built under the lock (it reads the rooms) and handed here; encoding and the
/// ``AtomicFile`` write run on this writer's own serial queue, never on the thread that holds
/// the lock. One slot, latest wins: a snapshot handed over while an earlier one waits replaces
/// it, and snapshots are written in the order they were handed over, so a later one is never
/// overwritten by an earlier one. A caller that must know its snapshot is on disk (a begin
/// asked by logind before the machine sleeps, shutdown) waits with ``waitUntilWritten(_:)``
/// after releasing the engine lock.
///
/// A failed write stops nothing: it is logged, the game gets
/// ``EngineEvent/savedStateWriteFailed(path:error:)`` from this writer's thread (before a caller
/// waiting for that snapshot goes on), and the next snapshot tries again.
final class SnapshotWriter: @unchecked Sendable {
    // @unchecked Sendable: every stored var is read and written only with `condition` locked.
    private let path: String
    private let logger: Logger
    /// Where a failed write is reported.
    private let events: EventSinks
    private let queue = DispatchQueue(label: "Interlude snapshot writer")
    private let condition = ConditionLock()
    /// The latest snapshot handed over and not yet taken by the queue, with its number.
    private var pending: (snapshot: SavedState, number: Int)?
    /// How many snapshots were handed over.
    private var submittedCount = 0
    /// The number of the last snapshot written (or whose write failed): every earlier one is
    /// done too, written or replaced.
    private var writtenNumber = 0
    /// The queue is writing or about to: a new snapshot needs no new queue job.
    private var isDraining = false
    #if DEBUG
    /// Tests hold the writer before it takes a snapshot, as a disk that does not answer would.
    private var isHeld = false
    #endif

    init(path: String, logger: Logger, events: EventSinks) {
        self.path = path
        self.logger = logger
        self.events = events
    }

    /// Hands `snapshot` over to be written; returns its number for ``waitUntilWritten(_:)``.
    /// Takes no time beyond a short lock: callable under the engine lock.
    @discardableResult
    func submit(_ snapshot: SavedState) -> Int {
        condition.lock()
        defer { condition.unlock() }
        submittedCount += 1
        pending = (snapshot, submittedCount)
        if !isDraining {
            isDraining = true
            queue.async { [self] in drain() }
        }
        return submittedCount
    }

    /// The number of the last snapshot handed over (0: none yet).
    var lastSubmitted: Int {
        condition.lock()
        defer { condition.unlock() }
        return submittedCount
    }

    /// Waits until snapshot `number` (or a later one) is written or has failed. Never call it
    /// under the engine lock.
    func waitUntilWritten(_ number: Int) {
        condition.lock()
        while writtenNumber < number { condition.wait() }
        condition.unlock()
    }

    /// Writes snapshots until none waits.
    private func drain() {
        while true {
            condition.lock()
            #if DEBUG
            while isHeld { condition.wait() }
            #endif
            guard let next = pending else {
                isDraining = false
                condition.unlock()
                return
            }
            pending = nil
            condition.unlock()
            do {
                try next.snapshot.write(to: path)
            } catch {
                // A failed write must never stop the audio: logged and reported, and the next
                // one tries again.
                let failure = error as? InterludeError ?? InterludeError(.writeFailed, "\(path): \(error)")
                logger.error("\(failure)")
                events.deliver([.savedStateWriteFailed(path: path, error: failure)])
            }
            condition.lock()
            writtenNumber = next.number
            condition.broadcast()
            condition.unlock()
        }
    }

    #if DEBUG
    /// Debug builds: stops the writer before it takes the next snapshot (true) or lets it go on
    /// (false), for tests that check no engine call waits for a write.
    func hold(_ isHeld: Bool) {
        condition.lock()
        self.isHeld = isHeld
        condition.broadcast()
        condition.unlock()
    }

    /// Debug builds: the number of the last snapshot written.
    var lastWritten: Int {
        condition.lock()
        defer { condition.unlock() }
        return writtenNumber
    }
    #endif
}
