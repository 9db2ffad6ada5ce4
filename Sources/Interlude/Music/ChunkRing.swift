import Dispatch

/// The ready PCM of one stream, between the decode worker and the update: a fixed set of slots,
/// allocated when the track opens, that the worker fills ahead of playback and the update
/// uploads into AL buffers.
///
/// Every slot is in one place at a time: free, being filled by the worker (under the worker's
/// readers lock only, never the engine's or the ring's), ready (in order, in ``DecodedChunk``s), or being uploaded by the update. Only those moves
/// take the ring's own lock, and only for a few list operations: neither side ever holds it
/// across a read, a decode or an AL call, so the update never waits behind the disk.
///
/// A restart (a seek, a new device) drops what is ready and bumps the generation: a chunk the
/// worker finishes for an older generation goes back to the free slots unheard.
///
/// `@unchecked Sendable`: the slots' memory is shared by pointer; a slot's samples are written
/// only by the worker between its claim and its publish, and read only by the update between
/// its take and its release, each hand-over made under the lock.
final class ChunkRing: @unchecked Sendable {
    /// What the worker is to do next for this ring.
    enum Claim {
        /// The stream is gone: drop the decoder.
        case closed
        /// Nothing to do: no free slot, the track ended, or nothing was asked yet.
        case idle
        /// Fill `slot` for `generation`, first seeking as `request` says when there is one.
        case fill(slot: Int, generation: Int, request: DecodeRequest?)
    }

    private struct State {
        /// Bumped by every restart; 0 until the first.
        var generation = 0
        /// A restart the worker has not taken yet.
        var request: DecodeRequest?
        /// Chunks ready to queue, oldest first.
        var ready: [DecodedChunk] = []
        var freeSlots: [Int] = []
        /// The worker published the end of the track for this generation.
        var hasEnded = false
        var isClosed = false
        /// The next frame the worker reads.
        var decodeFrame = 0
        /// The update waits in ``take(waiting:)``: the worker signals each chunk it publishes.
        var hasWaiter = false
    }

    private let state: AnnotatedMutex<State>
    private let samples: UnsafeMutablePointer<Float>
    /// Frames one slot holds: one AL buffer's worth.
    let slotFrameCount: Int
    let slotCount: Int
    private let channelCount: Int
    /// Wakes the decode worker.
    private let workerWake: DispatchSemaphore
    /// Wakes an update waiting for a chunk.
    private let chunkPublished = DispatchSemaphore(value: 0)

    init(slotCount: Int, slotFrameCount: Int, channelCount: Int, workerWake: DispatchSemaphore) {
        self.slotCount = slotCount
        self.slotFrameCount = slotFrameCount
        self.channelCount = channelCount
        self.workerWake = workerWake
        let sampleCount = slotCount * slotFrameCount * channelCount
        samples = .allocate(capacity: sampleCount)
        samples.initialize(repeating: 0, count: sampleCount)
        var initial = State()
        initial.ready.reserveCapacity(slotCount)
        initial.freeSlots.reserveCapacity(slotCount)
        initial.freeSlots.append(contentsOf: (0..<slotCount).reversed())
        state = AnnotatedMutex(initial)
    }

    deinit {
        samples.deallocate()
    }

    /// A slot's whole memory, interleaved.
    func slotSamples(_ slot: Int) -> UnsafeMutableBufferPointer<Float> {
        let count = slotFrameCount * channelCount
        return UnsafeMutableBufferPointer(start: samples + slot * count, count: count)
    }

    /// The next frame the worker reads: how far ahead of playback decoding has got.
    var decodeFrame: Int { state.withLock { $0.decodeFrame } }

    // MARK: The update's side

    /// Drops every ready chunk and asks the worker to read on from `request`.
    func restart(_ request: DecodeRequest) {
        state.withLock { state in
            state.generation += 1
            state.request = request
            for chunk in state.ready { state.freeSlots.append(chunk.slot) }
            state.ready.removeAll(keepingCapacity: true)
            state.hasEnded = false
            state.decodeFrame = request.startFrame
        }
        workerWake.signal()
    }

    /// The oldest ready chunk, if any. With `waiting` (offline renders), wakes the worker and
    /// waits for it to publish one unless the track has ended or nothing was asked yet. The
    /// caller uploads its samples and then calls ``release(_:wakesWorker:)``.
    func take(waiting: Bool) -> DecodedChunk? {
        while true {
            let (chunk, mayWait) = state.withLock { state -> (DecodedChunk?, Bool) in
                if !state.ready.isEmpty {
                    state.hasWaiter = false
                    return (state.ready.removeFirst(), false)
                }
                let mayWait = waiting && state.generation > 0 && !state.hasEnded && !state.isClosed
                state.hasWaiter = mayWait
                return (nil, mayWait)
            }
            if let chunk { return chunk }
            guard mayWait else { return nil }
            workerWake.signal()
            chunkPublished.wait()
        }
    }

    /// Gives a taken chunk's slot back to the worker, waking it to fill the slot; an offline
    /// render's update does not wake it (`wakesWorker` false): the render fills the slot itself
    /// before its next update (``DecodeWorker/decodeOnCallingThread()``).
    func release(_ slot: Int, wakesWorker: Bool) {
        state.withLock { $0.freeSlots.append(slot) }
        if wakesWorker { workerWake.signal() }
    }

    /// The stream is gone: the worker drops its decoder at its next look.
    func close() {
        state.withLock { $0.isClosed = true }
        workerWake.signal()
    }

    // MARK: The worker's side

    /// What the worker does next: see ``Claim``. A slot it is given is its own until it
    /// publishes it.
    func claim() -> Claim {
        state.withLock { state -> Claim in
            if state.isClosed { return .closed }
            guard state.generation > 0, state.request != nil || !state.hasEnded,
                  let slot = state.freeSlots.popLast() else { return .idle }
            defer { state.request = nil }
            return .fill(slot: slot, generation: state.generation, request: state.request)
        }
    }

    /// Hands a filled chunk to the update, unless a restart made it stale (then its slot is
    /// free again). `decodeFrame` is the worker's next frame.
    func publish(_ chunk: DecodedChunk, generation: Int, decodeFrame: Int) {
        let wakesWaiter = state.withLock { state -> Bool in
            guard generation == state.generation, !state.isClosed else {
                state.freeSlots.append(chunk.slot)
                return false
            }
            state.ready.append(chunk)
            if chunk.endsTrack { state.hasEnded = true }
            state.decodeFrame = decodeFrame
            defer { state.hasWaiter = false }
            return state.hasWaiter
        }
        if wakesWaiter { chunkPublished.signal() }
    }
}
