import Logging

/// A streamed track: decoded chunks from the engine's ``DecodeWorker`` feeding a queue of AL
/// buffers on one source.
///
/// The worker reads and decodes ahead into the stream's ``ChunkRing``; the update (under the
/// engine lock) only uploads the chunks that are ready into free buffers and queues them. Both
/// reuse the memory allocated at open, so the steady state allocates nothing and a long track
/// never holds more than `(bufferCount + ring slots) x bufferFrameCount` frames of PCM. The
/// position is the engine's own count of frames actually played: the start of the oldest queued
/// buffer plus the source's offset into the queue, modulo the loop. It is tracked on every
/// update, so it survives the device.
///
/// When no chunk is ready as the queue runs dry (a read stalled), the source underruns: it is
/// logged and counted, and once chunks come the source plays on from the frame after the last
/// one heard. Offline, every restart and every update of a render waits for the worker instead,
/// so a render hears exactly what it would if decoding were instant.
final class MusicStream {
    private let trackPath: String
    private let trackFormat: AudioFormat
    private let trackFrameCount: Int
    private let ring: ChunkRing
    /// Restarts wait for the worker (an offline engine): after a play, seek or rebuild the
    /// queue is as full as decoding on the spot would have made it.
    private let waitsForDecode: Bool
    private let streamChannel: StreamChannel
    private let loops: Bool
    private let requestedGain: Float
    /// The region that repeats when looping: an intro before `loopStartFrame` plays once.
    @exclusivity(unchecked) private var loopStartFrame: Int
    @exclusivity(unchecked) private var loopEndFrame: Int
    @exclusivity(unchecked) private var playState: PlayState
    @exclusivity(unchecked) private var currentFade: Fade?
    @exclusivity(unchecked) private var releasesWhenFadeEnds = false

    /// The file the track streams from.
    var path: String { trackPath }
    var format: AudioFormat { trackFormat }
    /// The track's length in frames.
    var frameCount: Int { trackFrameCount }
    /// The channel it plays on.
    var channel: StreamChannel { streamChannel }
    /// It starts again at the loop region's start when it reaches its end.
    var isLooping: Bool { loops }
    /// The loop region when it is not the whole track (an intro plays before it), else nil.
    var loopRegion: Range<Int>? {
        loopStartFrame == 0 && loopEndFrame == frameCount ? nil : loopStartFrame..<loopEndFrame
    }
    /// Playing, paused, held by the session or waiting to start: the stream set and the session
    /// controller move it between these.
    var state: PlayState {
        get { playState }
        set { playState = newValue }
    }
    /// The gain the game asked for.
    var gain: Float { requestedGain }
    /// A fade in, fade out or crossfade, scaling ``gain``.
    var fade: Fade? {
        get { currentFade }
        set { currentFade = newValue }
    }
    /// Released once its fade ends (a fade-out or the outgoing side of a crossfade).
    var stopsWhenFadeEnds: Bool {
        get { releasesWhenFadeEnds }
        set { releasesWhenFadeEnds = newValue }
    }
    /// Frames of the track played so far, modulo the loop.
    @exclusivity(unchecked) private var playedFrames: Int
    /// Set when decoding failed mid-stream: the stream plays out what is queued, then ends.
    @exclusivity(unchecked) private var failure: InterludeError?
    /// Set once the last frame has been played (a one-shot track, or a failed decode).
    @exclusivity(unchecked) private var finished = false

    private let bufferFrameCount: Int
    private let bufferCount: Int
    @exclusivity(unchecked) private var source: ALSource?
    @exclusivity(unchecked) private var freeBuffers: [ALBuffer] = []
    @exclusivity(unchecked) private var queue: [QueuedRange] = []
    /// The frame after the last one queued (counted on past the loop's end; see ``wrapped(_:)``).
    @exclusivity(unchecked) private var queuedEndFrame: Int
    /// The last chunk queued ended the track.
    @exclusivity(unchecked) private var reachedEnd = false
    /// A seek was made while AL could not be called: the queue still holds the old frames.
    @exclusivity(unchecked) private var restartsBeforePlay = false
    /// The frame the source ran dry at while no chunk was ready; nil while it plays.
    @exclusivity(unchecked) private var underrunFrame: Int?
    @exclusivity(unchecked) private var underruns = 0
    /// An underrun began or ended since the last ``takeUnderrunNews()``: for the game's events.
    @exclusivity(unchecked) private var underrunNews: (began: Int?, recovered: Int?) = (nil, nil)
    private let logger: Logger
    /// Damaged data the decoder stepped over since the last ``takeSkippedDamage()``: where the
    /// first skip began, and how many frames were read as silence.
    @exclusivity(unchecked) private var skippedDamage: (startFrame: Int, frameCount: Int)?

    /// Opens the stream on `decoder`, which goes to `worker` with its ring: from here on only
    /// the worker's thread calls it. The ring holds `bufferCount` chunks, allocated now.
    init(path: String, decoder: any AudioDecoder, worker: DecodeWorker, waitsForDecode: Bool, channel: StreamChannel,
         isLooping: Bool, gain: Float, state: PlayState, bufferCount: Int, bufferSeconds: Double, loopRegion: Range<Int>?,
         logger: Logger) {
        self.trackPath = path
        self.trackFormat = decoder.format
        self.trackFrameCount = decoder.frameCount
        self.waitsForDecode = waitsForDecode
        self.streamChannel = channel
        self.loops = isLooping
        self.requestedGain = gain
        self.playState = state
        self.bufferCount = bufferCount
        self.bufferFrameCount = max(256, Int(Double(decoder.format.sampleRate) * bufferSeconds))
        self.loopStartFrame = loopRegion?.lowerBound ?? 0
        self.loopEndFrame = loopRegion?.upperBound ?? decoder.frameCount
        self.playedFrames = 0
        self.queuedEndFrame = 0
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

    /// Frames of the track played so far, modulo the loop.
    var positionInFrames: Int { playedFrames }
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

    /// True while the stream holds an AL source on the current device.
    var isAttached: Bool { source != nil }

    /// PCM frames held in AL buffers and ring slots at most: the stream's memory bound.
    var maximumFramesInFlight: Int { bufferFrameCount * (bufferCount + ring.slotCount) }

    /// The gain sent to OpenAL: the game's gain, its fade and its group's.
    func effectiveGain(groupGain: Float) -> Float {
        gain * (fade?.gain ?? 1) * groupGain
    }

    // MARK: Device

    /// Makes the source and buffers on `device`, restarts decoding at the tracked position and
    /// queues what is ready (offline: waits for a full queue). Does not start playback.
    func attach(to device: ALDevice, groupGain: Float) throws {
        let newSource = try device.makeSource()
        source = newSource
        do {
            for _ in 0..<bufferCount { freeBuffers.append(try device.makeBuffer()) }
            if format.channelCount == 2 && !device.isMono {
                // Stereo music plays straight to the output channels: no panning, no crosstalk.
                // Not on a mono device: OpenAL Soft 1.19 drops direct channels it has no output for.
                try newSource.setDirectChannels(true)
            }
            try newSource.setRelativeToListener(true)
            try newSource.setPosition(.zero)
            try newSource.setRolloffFactor(0)
            try newSource.setGain(effectiveGain(groupGain: groupGain))
            try restart(atFrame: positionInFrames)
        } catch {
            // All or nothing: a stream left half attached (a source but too few buffers) would
            // never be attached again. Detached, the update attaches it once AL can.
            try? detach(from: device)
            forgetDevice()
            throw error
        }
    }

    /// Releases the source and buffers on a live device.
    func detach(from device: ALDevice) throws {
        if let source {
            try source.stop()
            try source.attach(nil)
            try device.deleteSource(source)
        }
        for range in queue { try device.deleteBuffer(range.buffer) }
        for buffer in freeBuffers { try device.deleteBuffer(buffer) }
        forgetDevice()
    }

    /// Drops every AL name without touching OpenAL: the device that held them is gone.
    func forgetDevice() {
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
    /// The source when it has something queued to play, for playing many sources in one call;
    /// nil otherwise (the update starts it when chunks come).
    var playableSource: ALSource? { queue.isEmpty ? nil : source }
    /// `alSourcePause`.
    func pause() throws { try source?.pause() }
    /// The source, for pausing many sources in one call.
    var alSource: ALSource? { source }

    /// Sets the AL gain.
    func applyGain(groupGain: Float) throws {
        try source?.setGain(effectiveGain(groupGain: groupGain))
    }

    /// Moves playback to `frame`: the queue is dropped and refilled from there. With
    /// `canUseAL` false (interrupted: no AL call may be made) only the position moves, and the
    /// queue is refilled from it by ``prepareToResume()``.
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
        if state == .playing { try play() }
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
        try source.stop()
        while let range = queue.first {
            _ = try source.unqueueOne()
            queue.removeFirst()
            freeBuffers.append(range.buffer)
        }
        try source.rewind()
        ring.restart(DecodeRequest(startFrame: frame, loopStartFrame: loopStartFrame, loopEndFrame: loopEndFrame, isLooping: loops))
        queuedEndFrame = frame
        reachedEnd = false
        restartsBeforePlay = false
        underrunFrame = nil
        try queueReadyChunks(waiting: waitsForDecode)
    }

    // MARK: Update

    /// One update: returns finished buffers to the free list, reads the position, queues the
    /// ready chunks, and starts a source that ran dry (or was never started) once it has some.
    /// Called with the context current and the stream attached.
    /// - Parameters:
    ///   - mayStart: its group is not paused.
    ///   - waiting: wait for the worker to fill every free buffer (an offline render).
    func service(mayStart: Bool, waiting: Bool) throws {
        guard let source else { return }
        let processed = try source.processedBufferCount()
        for _ in 0..<processed {
            let buffer = try source.unqueueOne()
            if let index = queue.firstIndex(where: { $0.buffer == buffer }) {
                queue.remove(at: index)
            }
            freeBuffers.append(buffer)
        }
        let alState = try source.state()
        readPosition(offsetInQueue: alState == .stopped ? nil : try source.sampleOffset())
        try queueReadyChunks(waiting: waiting)
        if queue.isEmpty && reachedEnd {
            finished = true
            return
        }
        guard state == .playing, alState != .playing, mayStart else { return }
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
    }

    /// Reads the position from the source's offset into the queue (nil: the queue ran dry).
    func readPosition(offsetInQueue: Int?) {
        guard let offsetInQueue else {
            if queue.isEmpty { playedFrames = wrapped(queuedEndFrame) }
            return
        }
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
    /// Acts on what the reads met: damage stepped over, a shorter file, an error that ends it.
    private func queueReadyChunks(waiting: Bool) throws {
        guard let source else { return }
        while !reachedEnd, let buffer = freeBuffers.last, let chunk = ring.take(waiting: waiting) {
            defer { ring.release(chunk.slot) }
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
            let samples = ring.slotSamples(chunk.slot)
            try buffer.upload(UnsafeBufferPointer(rebasing: samples[0..<(chunk.frameCount * format.channelCount)]), format: format)
            try source.queue(buffer)
            queue.append(QueuedRange(buffer: buffer, startFrame: chunk.startFrame, frameCount: chunk.frameCount))
            queuedEndFrame = chunk.startFrame + chunk.frameCount
        }
    }
}
