import Foundation
import Logging
import Synchronization

/// The engine's decode thread: it reads and decodes every stream's track ahead of playback into
/// the stream's ``ChunkRing``, so no file read or decode runs under the engine lock.
///
/// One per engine. It takes one chunk per stream in turn, and sleeps on its semaphore when
/// every ring is full, ended or idle; a restart, a released slot, a new track or a closed one
/// wakes it. A read that blocks holds this thread only: the streams play what their queues and
/// rings hold meanwhile, and underrun if the block outlasts that.
///
/// Stopping (``stop()``) wakes it and waits for it, outside the engine lock, until its read
/// under way returns; it then drops every decoder, which closes their files. A read that has
/// not returned after ``stopWaitSeconds`` is left to finish on its own: the thread then ends
/// by itself, and shutdown does not hang on a file that never answers.
final class DecodeWorker: Sendable {
    /// Readers handed over since the thread last looked.
    private let inbox = AnnotatedMutex<[TrackReader]>([])
    private let stopRequested = Atomic<Bool>(false)
    /// Wakes the thread: shared with every ring it serves.
    let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let logger: Logger
    /// How long ``stop()`` waits for a read under way.
    static let stopWaitSeconds = 2.0

    init(logger: Logger) {
        self.logger = logger
        let thread = Thread { [self] in
            var readers: [TrackReader] = []
            while !stopRequested.load(ordering: .acquiring) {
                readers += inbox.withLock { inbox -> [TrackReader] in
                    defer { inbox.removeAll() }
                    return inbox
                }
                var worked = false
                var index = 0
                while index < readers.count {
                    switch readers[index].step() {
                    case .closed: readers.remove(at: index); continue
                    case .worked: worked = true
                    case .idle: break
                    }
                    index += 1
                }
                if !worked { wake.wait() }
            }
            readers.removeAll()
            finished.signal()
        }
        thread.name = "Interlude decode"
        thread.qualityOfService = .userInitiated
        thread.start()
    }

    /// Hands `reader` to the thread; from now on only the thread touches it.
    func add(_ reader: TrackReader) {
        inbox.withLock { $0.append(reader) }
        wake.signal()
    }

    /// Asks the thread to end after what it is doing, without waiting.
    func requestStop() {
        stopRequested.store(true, ordering: .releasing)
        wake.signal()
    }

    /// Stops the thread and waits for it (up to ``stopWaitSeconds``). Idempotent. Never called
    /// on the thread itself: the worker calls no engine code.
    func stop() {
        requestStop()
        guard finished.wait(timeout: .now() + Self.stopWaitSeconds) == .success else {
            logger.warning("the decode thread is still in a read after \(Self.stopWaitSeconds) s; it ends when the read returns")
            return
        }
        finished.signal()
    }
}
