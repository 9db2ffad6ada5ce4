import Logging

/// The queue of one streamed track on one AL source: decoded chunks from the engine's
/// ``DecodeWorker`` uploaded into a few AL buffers, queued in order, and the position played.
/// A soundtrack (``MusicStream``) and a streamed voice (a ``Voice`` of a stream) each play
/// through one; they differ only in where their source comes from and how it is set up.
///
/// The worker reads and decodes ahead into the queue's ``ChunkRing``; the update (under the
/// engine lock) only uploads the chunks that are ready into free buffers and queues them. Both
/// reuse the memory allocated at open, so the steady state allocates nothing and a long track
/// never holds more than ``bytesInFlight`` of PCM. The position is the engine's own count of
/// frames actually played: the start of the oldest queued buffer plus the source's offset into
/// the queue, modulo the loop. It is tracked on every update, so it survives the device.
///
/// When no chunk is ready as the queue runs dry (a read stalled), the source underruns: it is
/// logged and counted, and once chunks come the source plays on from the frame after the last
/// one heard. Offline, every restart and every update of a render waits for the worker instead,
/// so a render hears exactly what it would if decoding were instant.
///
/// With `downmixesToMono` a stereo track is queued as the average of its two channels, as a
/// loaded stereo sound is for positional play: OpenAL places only mono sources.
final class StreamQueue {
    private let trackPath: String
    private let trackFormat: AudioFormat
    private let trackFrameCount: Int
    private let ring: ChunkRing
    /// Restarts wait for the worker (an offline engine): after a play, seek or rebuild the
    /// queue is as full as decoding on the spot would have made it.
    private let waitsForDecode: Bool
    private let loops: Bool
    /// The region that repeats when looping: an intro before `loopStartFrame` plays once.
    @exclusivity(unchecked) private var loopStartFrame: Int
    @exclusivity(unchecked) private var loopEndFrame: Int
    /// Frames of the track played so far, modulo the loop.
    @exclusivity(unchecked) private var playedFrames = 0
    /// Frames played in all, never wrapped nor moved by a seek: the music's own clock, which
    /// stands still while the track does. As of the last position read.
    @exclusivity(unchecked) private var clockFrames = 0
    /// The music clock when the queue was last refilled from scratch (a restart).
    @exclusivity(unchecked) private var clockAtRestart = 0
    /// Frames of the buffers played and unqueued since that restart.
    @exclusivity(unchecked) private var unqueuedFrames = 0
    /// Set when decoding failed mid-stream: the stream plays out what is queued, then ends.
    @exclusivity(unchecked) private var failure: InterludeError?
    /// Set once the last frame has been played (a one-shot track, or a failed decode).
    @exclusivity(unchecked) private var finished = false

    private let bufferFrameCount: Int
    private let bufferCount: Int
    /// The format queued to OpenAL: the track's, or mono when downmixing.
    private let queuedFormat: AudioFormat
    /// One buffer's mono samples, reused by every downmix (empty when not downmixing).
    @exclusivity(unchecked) private var downmixScratch: [Float]
    @exclusivity(unchecked) private var source: ALSource?
    @exclusivity(unchecked) private var freeBuffers: [ALBuffer] = []
    @exclusivity(unchecked) private var queue: [QueuedRange] = []
    /// The frame after the last one queued (counted on past the loop's end; see ``wrapped(_:)``).
    @exclusivity(unchecked) private var queuedEndFrame = 0
    /// The last chunk queued ended the track.
    @exclusivity(unchecked) private var reachedEnd = false
    /// A seek was made while AL could not be called: the queue still holds the old frames.
    @exclusivity(unchecked) private var restartsBeforePlay = false
    /// The frame the source ran dry at while no chunk was ready; nil while it plays.
    @exclusivity(unchecked) private var underrunFrame: Int?
    @exclusivity(unchecked) private var underruns = 0
    @exclusivity(unchecked) private var playingAtService = false
    /// An underrun began or ended since the last ``takeUnderrunNews()``: for the game's events.
    @exclusivity(unchecked) private var underrunNews: (began: Int?, recovered: Int?) = (nil, nil)
    private let logger: Logger
    /// Damaged data the decoder stepped over since the last ``takeSkippedDamage()``: where the
    /// first skip began, and how many frames were read as silence.
    @exclusivity(unchecked) private var skippedDamage: (startFrame: Int, frameCount: Int)?

    /// Opens the queue on `decoder`, which goes to `worker` with its ring: from here on only
    /// the thread stepping the worker's readers calls it. The ring holds `bufferCount` chunks of `bufferFrameCount`
    /// frames, allocated now.
    init(path: String, decoder: any AudioDecoder, worker: DecodeWorker, waitsForDecode: Bool, isLooping: Bool,
         bufferCount: Int, bufferFrameCount: Int, loopRegion: Range<Int>?, downmixesToMono: Bool, logger: Logger) {
        self.trackPath = path
        self.trackFormat = decoder.format
        self.trackFrameCount = decoder.frameCount
        self.waitsForDecode = waitsForDecode
        self.loops = isLooping
        self.bufferCount = bufferCount
        self.bufferFrameCount = bufferFrameCount
        self.loopStartFrame = loopRegion?.lowerBound ?? 0
        self.loopEndFrame = loopRegion?.upperBound ?? decoder.frameCount
        let downmixes = downmixesToMono && decoder.format.channelCount == 2
        self.queuedFormat = downmixes ? AudioFormat(sampleRate: decoder.format.sampleRate, channelCount: 1) : decoder.format
        self.downmixScratch = downmixes ? [Float](repeating: 0, count: bufferFrameCount) : []
        self.logger = logger
        ring = ChunkRing(slotCount: bufferCount, slotFrameCount: bufferFrameCount, channelCount: decoder.format.channelCount,
                         workerWake: worker.wake)
        queue.reserveCapacity(bufferCount)
        freeBuffers.reserveCapacity(bufferCount)
        worker.add(TrackReader(decoder: decoder, ring: ring))
    }

    deinit {
        ring.close()
    }

    /// The file the track streams from.
    var path: String { trackPath }
    /// The track's format, as decoded.
    var format: AudioFormat { trackFormat }
    /// The track's length in frames.
    var frameCount: Int { trackFrameCount }
    /// It starts again at the loop region's start when it reaches its end.
    var isLooping: Bool { loops }
    /// The loop region when it is not the whole track (an intro plays before it), else nil.
    var loopRegion: Range<Int>? {
        loopStartFrame == 0 && loopEndFrame == frameCount ? nil : loopStartFrame..<loopEndFrame
    }
    /// Frames of the track played so far, modulo the loop.
    var positionInFrames: Int { playedFrames }
    /// Frames played in all since the track started, as of the last position read: unlike
    /// the position, it never wraps and a seek does not move it.
    var musicClockFrames: Int { clockFrames }
    /// Set when decoding failed mid-stream: the stream plays out what is queued, then ends.
    var decodeError: InterludeError? { failure }

    /// The damage skipped since the last call, once: for the game's event.
    func takeSkippedDamage() -> (startFrame: Int, frameCount: Int)? {
        defer { skippedDamage = nil }
        return skippedDamage
    }
    /// The frame an underrun began at and the frame playback recovered on, since the last
    /// call, once: for the game's events.
    func takeUnderrunNews() -> (began: Int?, recovered: Int?) {
        defer { underrunNews = (nil, nil) }
        return underrunNews
    }
    /// Set once the last frame has been played (a one-shot track, or a failed decode).
    var isFinished: Bool { finished }
    /// The next frame the worker reads: how far ahead of the position decoding has got.
    var decodeFrame: Int { ring.decodeFrame }
    /// Times the source ran dry while playing (a stalled update loop, or decoding behind).
    var underrunCount: Int { underruns }

    /// True while the queue plays on a source of the current device.
    var isAttached: Bool { source != nil }

    /// PCM frames held in AL buffers and ring slots at most.
    var maximumFramesInFlight: Int { bufferFrameCount * (bufferCount + ring.slotCount) }

    /// Bytes of PCM the stream holds at most: its ring's slots (the track's channels, float)
    /// and its AL buffers (the queued channels, float), each one chunk long.
    var bytesInFlight: Int {
        let sampleBytes = MemoryLayout<Float>.size
        return bufferFrameCount * sampleBytes
            * (ring.slotCount * trackFormat.channelCount + bufferCount * queuedFormat.channelCount)
    }

    // MARK: Device

    /// Makes the buffers on `device`, takes `source` (set up by the caller), restarts decoding
    /// at the tracked position and queues what is ready (offline: waits for a full queue).
    /// Does not start playback. All or nothing: when a buffer cannot be made, what was made is
    /// deleted and the queue is left without a source (the caller keeps `source`).
    func attach(_ source: ALSource, on device: ALDevice) throws {
        do {
            for _ in 0..<bufferCount { freeBuffers.append(try device.makeBuffer()) }
            self.source = source
            try restart(atFrame: positionInFrames)
        } catch {
            try? source.stop()
            try? source.attach(nil)
            for buffer in freeBuffers + queue.map(\.buffer) { try? device.deleteBuffer(buffer) }
            forgetDevice()
            throw error
        }
    }

    /// Stops the source, unqueues and deletes the buffers on a live device, and lets the source
    /// go (the caller deletes or reuses it). The position stays.
    func detach(from device: ALDevice) throws {
        if let source {
            try source.stop()
            try source.attach(nil)
        }
        for range in queue { try device.deleteBuffer(range.buffer) }
        for buffer in freeBuffers { try device.deleteBuffer(buffer) }
        forgetDevice()
    }

    /// Lets the source and the buffers go without an AL call, handing the buffers to the caller,
    /// which deletes them once the source is stopped and emptied (an ending voice while no AL
    /// call may be made).
    func takeBuffers() -> [ALBuffer] {
        let buffers = queue.map(\.buffer) + freeBuffers
        forgetDevice()
        return buffers
    }

    /// Drops every AL name without touching OpenAL: the device that held them is gone.
    func forgetDevice() {
        clockAtRestart = clockFrames
        unqueuedFrames = 0
        source = nil
        queue.removeAll(keepingCapacity: true)
        freeBuffers.removeAll(keepingCapacity: true)
    }

    // MARK: Transport

    /// `alSourcePlay`, after any refill a seek while interrupted left to do. With nothing
    /// queued yet (a real-time restart whose first chunk is not decoded), the update starts it
    /// once a chunk is queued.
    func play() throws {
        try prepareToResume()
        try playableSource?.play()
    }
    /// The source when it has something queued to play; nil otherwise (the update starts it
    /// when chunks come).
    private var playableSource: ALSource? { queue.isEmpty ? nil : source }
    /// `alSourcePause`.
    func pause() throws { try source?.pause() }
    /// The source was playing when the last ``service(mayStart:waiting:)`` looked (after any
    /// start it made): what a track of stems checks, without asking OpenAL again.
    var wasPlayingAtService: Bool { playingAtService }
    /// The source.
    var alSource: ALSource? { source }
    /// The source's place, for pausing many in one call.
    var renderSlot: RenderSlot? { source.map(RenderSlot.init) }
    /// The place of the source when it has something queued to play, for playing many in one
    /// call; nil otherwise.
    var playableSlot: RenderSlot? { playableSource.map(RenderSlot.init) }

    /// Moves playback to `frame`: the queue is dropped and refilled from there. With
    /// `canUseAL` false (interrupted: no AL call may be made) only the position moves, and the
    /// queue is refilled from it by ``prepareToResume()``. Without a source, only the position
    /// moves: the next attach fills the queue from it.
    func seek(toFrame frame: Int, canUseAL: Bool = true) throws {
        guard frame >= 0, frame <= frameCount else {
            throw InterludeError(.invalidArgument, "seek(toFrame: \(frame)): \(path) has \(frameCount) frames")
        }
        playedFrames = frame
        finished = false
        guard source != nil else { return }
        guard canUseAL else {
            restartsBeforePlay = true
            return
        }
        try restart(atFrame: frame)
    }

    /// Refills the queue from the position if a seek was made while AL could not be called.
    /// Called with the context current, before the source plays again.
    func prepareToResume() throws {
        guard restartsBeforePlay, source != nil else { return }
        try restart(atFrame: positionInFrames)
    }

    /// Sets the loop region; an intro before it plays once.
    func setLoopRegion(_ region: Range<Int>) throws {
        guard region.lowerBound >= 0, region.upperBound <= frameCount, !region.isEmpty else {
            throw InterludeError(.invalidArgument, "setLoopRegion(\(region)): \(path) has \(frameCount) frames")
        }
        loopStartFrame = region.lowerBound
        loopEndFrame = region.upperBound
    }

    /// Stops the source, empties the queue, restarts the worker at `frame`, and queues what is
    /// ready (offline: waits for a full queue).
    private func restart(atFrame frame: Int) throws {
        guard let source else { return }
        // The music clock counts what played up to here; the frames dropped below never play.
        let alState = try source.state()
        if alState == .playing || alState == .paused { readPosition(offsetInQueue: try source.sampleOffset(), movesPosition: false) }
        try source.stop()
        while let range = queue.first {
            _ = try source.unqueueOne()
            queue.removeFirst()
            freeBuffers.append(range.buffer)
        }
        try source.rewind()
        clockAtRestart = clockFrames
        unqueuedFrames = 0
        ring.restart(DecodeRequest(startFrame: frame, loopStartFrame: loopStartFrame, loopEndFrame: loopEndFrame, isLooping: loops))
        queuedEndFrame = frame
        reachedEnd = false
        restartsBeforePlay = false
        underrunFrame = nil
        // Whoever drives the engine next (a render, or an update that never waits) finds the
        // slots this frees being filled.
        try queueReadyChunks(waiting: waitsForDecode, wakesWorker: true)
    }

    // MARK: Update

    /// One update: returns finished buffers to the free list, reads the position, queues the
    /// ready chunks, and starts a source that ran dry (or was never started) once it has some.
    /// Called with the context current and the queue attached.
    /// - Parameters:
    ///   - mayStart: it is playing, and its group is not paused.
    ///   - waiting: wait for the worker to fill every free buffer (an offline render).
    func service(mayStart: Bool, waiting: Bool) throws {
        guard let source else { return }
        let processed = try source.processedBufferCount()
        for _ in 0..<processed {
            let buffer = try source.unqueueOne()
            if let index = queue.firstIndex(where: { $0.buffer == buffer }) {
                unqueuedFrames += queue[index].frameCount
                queue.remove(at: index)
            }
            freeBuffers.append(buffer)
        }
        let alState = try source.state()
        playingAtService = alState == .playing
        readPosition(offsetInQueue: alState == .stopped ? nil : try source.sampleOffset())
        // A render's update leaves the slots it frees to the render, which fills them before its
        // next update (DecodeWorker.decodeOnCallingThread); any other update wakes the worker.
        try queueReadyChunks(waiting: waiting, wakesWorker: !waiting)
        if queue.isEmpty && reachedEnd {
            finished = true
            return
        }
        guard alState != .playing, mayStart else { return }
        if queue.isEmpty {
            if alState == .stopped && underrunFrame == nil {
                underrunFrame = positionInFrames
                underrunNews.began = positionInFrames
                underruns += 1
                logger.warning("stream \(path) underran at frame \(positionInFrames): no decoded audio ready (its reads are behind); it plays on from this frame when they catch up")
            }
            return
        }
        if underrunFrame != nil {
            logger.notice("stream \(path) recovered from its underrun: playing on from frame \(positionInFrames)")
            underrunNews.recovered = positionInFrames
            underrunFrame = nil
        } else if alState == .stopped {
            underruns += 1
            logger.warning("stream \(path) starved at frame \(positionInFrames); refilled and restarted")
        }
        try source.play()
        playingAtService = true
    }

    /// Reads the position from the source's offset into the queue (nil: the queue ran dry).
    private func readPosition(offsetInQueue: Int?, movesPosition: Bool = true) {
        guard let offsetInQueue else {
            if queue.isEmpty {
                playedFrames = wrapped(queuedEndFrame)
                clockFrames = clockAtRestart + unqueuedFrames
            }
            return
        }
        clockFrames = clockAtRestart + unqueuedFrames + offsetInQueue
        guard movesPosition else { return }
        var remaining = offsetInQueue
        for range in queue {
            if remaining < range.frameCount {
                playedFrames = wrapped(range.startFrame + remaining)
                return
            }
            remaining -= range.frameCount
        }
        playedFrames = wrapped(queuedEndFrame)
    }

    /// Reads the position from OpenAL now (before an interruption or a teardown).
    func syncPosition() throws {
        guard let source, !restartsBeforePlay else { return }
        let alState = try source.state()
        if alState == .stopped, let last = queue.last, try source.processedBufferCount() == queue.count {
            // Starved between updates: every queued frame has played, so the position is the
            // queue's end (the buffers are still queued until the next update unqueues them).
            playedFrames = wrapped(last.startFrame + last.frameCount)
            clockFrames = clockAtRestart + unqueuedFrames + queue.reduce(0) { $0 + $1.frameCount }
            return
        }
        readPosition(offsetInQueue: alState == .stopped ? nil : try source.sampleOffset())
    }

    /// A frame counted on past the loop's end, folded back into the loop.
    private func wrapped(_ frame: Int) -> Int {
        guard loops, frame >= loopEndFrame, loopEndFrame > loopStartFrame else { return min(frame, frameCount) }
        return loopStartFrame + (frame - loopEndFrame) % (loopEndFrame - loopStartFrame)
    }

    /// Uploads ready chunks into the free buffers and queues them, oldest first; with
    /// `waiting`, waits for the worker until every free buffer is queued or the track ended.
    /// Each slot it empties goes back to the worker, waking it when `wakesWorker`.
    /// Acts on what the reads met: damage stepped over, a shorter file, an error that ends it.
    private func queueReadyChunks(waiting: Bool, wakesWorker: Bool) throws {
        guard let source else { return }
        while !reachedEnd, let buffer = freeBuffers.last, let chunk = ring.take(waiting: waiting) {
            defer { ring.release(chunk.slot, wakesWorker: wakesWorker) }
            loopEndFrame = chunk.loopEndFrame
            if let damage = chunk.skippedDamage {
                skippedDamage = (skippedDamage?.startFrame ?? damage.startFrame, (skippedDamage?.frameCount ?? 0) + damage.frameCount)
            }
            if let error = chunk.failure {
                logger.error("stream \(path) ends: \(error.message)")
                failure = error
            }
            if chunk.endsTrack { reachedEnd = true }
            guard chunk.frameCount > 0 else { continue }
            freeBuffers.removeLast()
            try upload(chunk, into: buffer)
            try source.queue(buffer)
            queue.append(QueuedRange(buffer: buffer, startFrame: chunk.startFrame, frameCount: chunk.frameCount))
            queuedEndFrame = chunk.startFrame + chunk.frameCount
        }
    }

    /// Uploads a chunk's samples, as they are or averaged to mono.
    private func upload(_ chunk: DecodedChunk, into buffer: ALBuffer) throws {
        let samples = ring.slotSamples(chunk.slot)
        guard queuedFormat.channelCount != trackFormat.channelCount else {
            try buffer.upload(UnsafeBufferPointer(rebasing: samples[0..<(chunk.frameCount * trackFormat.channelCount)]), format: queuedFormat)
            return
        }
        try downmixScratch.withUnsafeMutableBufferPointer { mono in
            for frame in 0..<chunk.frameCount {
                mono[frame] = 0.5 * (samples[2 * frame] + samples[2 * frame + 1])
            }
            try buffer.upload(UnsafeBufferPointer(rebasing: mono[0..<chunk.frameCount]), format: queuedFormat)
        }
    }
}
