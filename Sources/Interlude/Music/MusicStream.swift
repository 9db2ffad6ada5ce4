import Logging

/// A streamed track: a decoder feeding a queue of AL buffers on one source.
///
/// Refills happen on the engine's update and reuse the same buffers and scratch memory, so the
/// steady state allocates nothing and a long track never holds more than
/// `bufferCount x bufferFrameCount` frames of PCM. The position is the engine's own count of
/// frames actually played: the start of the oldest queued buffer plus the source's offset into
/// the queue, modulo the loop. It is tracked on every update, so it survives the device.
final class MusicStream {
    private let trackPath: String
    private let decoder: any AudioDecoder
    private let streamChannel: StreamChannel
    private let loops: Bool
    private let requestedGain: Float
    /// The region that repeats when looping: an intro before `loopStartFrame` plays once.
    private var loopStartFrame: Int
    private var loopEndFrame: Int
    private var playState: PlayState
    private var currentFade: Fade?
    private var releasesWhenFadeEnds = false

    /// The file the track streams from.
    var path: String { trackPath }
    var format: AudioFormat { decoder.format }
    /// The track's length in frames.
    var frameCount: Int { decoder.frameCount }
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
    private var playedFrames: Int
    /// Set when decoding failed mid-stream: the stream plays out what is queued, then ends.
    private var failure: InterludeError?
    /// Set once the last frame has been played (a one-shot track, or a failed decode).
    private var finished = false

    private let bufferFrameCount: Int
    private let bufferCount: Int
    private var source: ALSource?
    private var freeBuffers: [ALBuffer] = []
    private var queue: [QueuedRange] = []
    /// The next frame the decoder reads: how far ahead of the position decoding has got.
    private var nextDecodeFrame: Int
    private var reachedEnd = false
    /// A seek was made while AL could not be called: the queue still holds the old frames.
    private var restartsBeforePlay = false
    private var scratch: [Float]
    private let logger: Logger
    /// Damaged data the decoder stepped over since the last ``takeSkippedDamage()``: where the
    /// first skip began, and how many frames were read as silence.
    private var skippedDamage: (startFrame: Int, frameCount: Int)?

    init(path: String, decoder: any AudioDecoder, channel: StreamChannel, isLooping: Bool, gain: Float, state: PlayState,
         bufferCount: Int, bufferSeconds: Double, loopRegion: Range<Int>?, logger: Logger) {
        self.trackPath = path
        self.decoder = decoder
        self.streamChannel = channel
        self.loops = isLooping
        self.requestedGain = gain
        self.playState = state
        self.bufferCount = bufferCount
        self.bufferFrameCount = max(256, Int(Double(decoder.format.sampleRate) * bufferSeconds))
        self.loopStartFrame = loopRegion?.lowerBound ?? 0
        self.loopEndFrame = loopRegion?.upperBound ?? decoder.frameCount
        self.playedFrames = 0
        self.nextDecodeFrame = 0
        self.scratch = [Float](repeating: 0, count: bufferFrameCount * decoder.format.channelCount)
        self.logger = logger
        queue.reserveCapacity(bufferCount)
        freeBuffers.reserveCapacity(bufferCount)
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
    /// Set once the last frame has been played (a one-shot track, or a failed decode).
    var isFinished: Bool { finished }
    /// The next frame the decoder reads: how far ahead of the position decoding has got.
    var decodeFrame: Int { nextDecodeFrame }

    /// True while the stream holds an AL source on the current device.
    var isAttached: Bool { source != nil }

    /// PCM frames held in AL buffers and scratch at most: the stream's memory bound.
    var maximumFramesInFlight: Int { bufferFrameCount * (bufferCount + 1) }

    /// The gain sent to OpenAL: the game's gain, its fade and its group's.
    func effectiveGain(groupGain: Float) -> Float {
        gain * (fade?.gain ?? 1) * groupGain
    }

    // MARK: Device

    /// Makes the source and buffers on `device`, seeks the decoder to the tracked position and
    /// fills the queue. Does not start playback.
    func attach(to device: ALDevice, groupGain: Float) throws {
        let newSource = try device.makeSource()
        source = newSource
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

    /// `alSourcePlay`, after any refill a seek while interrupted left to do.
    func play() throws {
        try prepareToResume()
        try source?.play()
    }
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

    /// Stops the source, empties the queue, and fills it again from `frame`.
    private func restart(atFrame frame: Int) throws {
        guard let source else { return }
        try source.stop()
        while let range = queue.first {
            _ = try source.unqueueOne()
            queue.removeFirst()
            freeBuffers.append(range.buffer)
        }
        try source.rewind()
        try decoder.seek(toFrame: frame)
        nextDecodeFrame = frame
        reachedEnd = false
        restartsBeforePlay = false
        try refill()
    }

    // MARK: Update

    /// One update: returns finished buffers to the free list, reads the position, refills, and
    /// restarts a starved source. Called with the context current and the stream attached.
    func service() throws {
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
        try refill()
        if queue.isEmpty && reachedEnd {
            finished = true
            return
        }
        if state == .playing && (alState == .stopped || alState == .initial) && !queue.isEmpty {
            if alState == .stopped {
                logger.warning("stream \(path) starved at frame \(positionInFrames); refilled and restarted")
            }
            try source.play()
        }
    }

    /// Reads the position from the source's offset into the queue (nil: the queue ran dry).
    func readPosition(offsetInQueue: Int?) {
        guard let offsetInQueue else {
            if queue.isEmpty { playedFrames = wrapped(nextDecodeFrame) }
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
        playedFrames = wrapped(nextDecodeFrame)
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

    /// Decodes into every free buffer and queues it.
    private func refill() throws {
        guard let source else { return }
        while !reachedEnd, let buffer = freeBuffers.last {
            let channelCount = format.channelCount
            var filledFrames = 0
            var startFrame = nextDecodeFrame
            while filledFrames < bufferFrameCount {
                let endFrame = loops ? loopEndFrame : frameCount
                if nextDecodeFrame >= endFrame {
                    guard loops, loopEndFrame > loopStartFrame else {
                        reachedEnd = true
                        break
                    }
                    // A fill runs on across the seam, so a loop shorter than a buffer still
                    // fills whole buffers and the queue outlasts the update interval.
                    try decoder.seek(toFrame: loopStartFrame)
                    nextDecodeFrame = loopStartFrame
                    if filledFrames == 0 { startFrame = nextDecodeFrame }
                }
                let wantedFrames = min(bufferFrameCount - filledFrames, endFrame - nextDecodeFrame)
                let readFrames: Int
                let skippedBefore = decoder.skippedFrameCount
                do {
                    readFrames = try scratch.withUnsafeMutableBufferPointer { samples in
                        let window = UnsafeMutableBufferPointer(rebasing: samples[(filledFrames * channelCount)..<((filledFrames + wantedFrames) * channelCount)])
                        return try decoder.read(into: window)
                    }
                } catch let error as InterludeError {
                    logger.error("stream \(path) ends: \(error.message)")
                    failure = error
                    reachedEnd = true
                    break
                }
                if readFrames == 0 {
                    // The file is shorter than it said: treat what was read as the end.
                    if loops && nextDecodeFrame > loopStartFrame {
                        loopEndFrame = nextDecodeFrame
                        continue
                    }
                    reachedEnd = true
                    break
                }
                let skipped = decoder.skippedFrameCount - skippedBefore
                if skipped > 0 {
                    skippedDamage = (skippedDamage?.startFrame ?? nextDecodeFrame, (skippedDamage?.frameCount ?? 0) + skipped)
                }
                filledFrames += readFrames
                nextDecodeFrame += readFrames
            }
            guard filledFrames > 0 else { break }
            freeBuffers.removeLast()
            try scratch.withUnsafeBufferPointer { samples in
                try buffer.upload(UnsafeBufferPointer(rebasing: samples[0..<(filledFrames * channelCount)]), format: format)
            }
            try source.queue(buffer)
            queue.append(QueuedRange(buffer: buffer, startFrame: startFrame, frameCount: filledFrames))
        }
    }
}
