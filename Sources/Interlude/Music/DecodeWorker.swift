import Dispatch
import Logging
import Synchronization

/// The engine's decode thread: it reads and decodes every stream's track ahead of playback into
/// the stream's ``ChunkRing``, so no file read or decode runs under the engine lock.
///
/// One per engine. It takes one chunk per stream in turn, and sleeps on its semaphore when
/// every ring is full, ended or idle; a restart, a released slot, a new track or a closed one
/// wakes it. A read that blocks holds this thread and the worker's readers lock only: in real
/// time the streams play what their queues and rings hold meanwhile, and underrun if the block
/// outlasts that; an offline render, which needs that lock to decode, waits for it as it waits
/// for the data.
///
/// An offline render decodes on its own thread instead, between updates and outside the engine
/// lock (``decodeOnCallingThread()``): the slots its updates free do not wake the thread, so the
/// render does not pay for a second thread decoding in parallel and the switches to it. The
/// thread still serves any update that waits for a chunk (after a seek, a new track, a voice
/// given a source) and the slots freed by anything else.
///
/// Stopping (``stop()``) wakes it and waits for it, outside the engine lock, until its read
/// under way returns; it then drops every decoder, which closes their files. A read that has
/// not returned after ``stopWaitSeconds`` is left to finish on its own: the thread then ends
/// by itself, and shutdown does not hang on a file that never answers.
final class DecodeWorker: Sendable {
    /// Readers handed over since the readers were last stepped. Apart from ``readers`` so that
    /// handing one over (under the engine lock) never waits behind a read.
    private let inbox = AnnotatedMutex<[TrackReader]>([])
    /// Every open stream's reader, held by whichever thread steps them (this worker's, or a
    /// render's) for the whole round: never under the engine lock.
    private let readers = AnnotatedMutex<[TrackReader]>([])
    private let stopRequested = Atomic<Bool>(false)
    /// Wakes the thread: shared with every ring it serves.
    let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let logger: Logger
    /// How long ``stop()`` waits for a read under way.
    static let stopWaitSeconds = 2.0

    /// Starts the worker's thread; throws when no thread can be made.
    init(logger: Logger) throws {
        self.logger = logger
        try NamedThread.start("IL decode") { [self] in
            while !stopRequested.load(ordering: .acquiring) {
                if !stepEveryReader() { wake.wait() }
            }
            readers.withLock { $0.removeAll() }
            finished.signal()
        }
    }

    /// Fills every ring as far as it goes, on the calling thread: an offline render calls it
    /// before each update, outside the engine lock. Blocks as long as the reads do.
    func decodeOnCallingThread() {
        while !stopRequested.load(ordering: .acquiring) && stepEveryReader() {}
    }

    /// Takes in the readers handed over, then fills one chunk per stream that has room; drops
    /// the readers of closed streams. True when any chunk was filled.
    private func stepEveryReader() -> Bool {
        readers.withLock { readers -> Bool in
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
            return worked
        }
    }

    /// Hands `reader` to the worker; from now on only the thread stepping the readers touches it.
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
