import Logging

/// A streamed track on a stream channel: its ``StreamQueue`` (which ``StreamGroupMix`` puts on
/// a source of its own, straight to the output), with the channel's gain, fade and play state.
final class MusicStream {
    private let queue: StreamQueue
    private let streamChannel: StreamChannel
    private let number: Int
    @exclusivity(unchecked) private var requestedGain: Float
    private let loudness: StreamLoudness?
    @exclusivity(unchecked) private var gainChange: Fade?
    @exclusivity(unchecked) private var playState: PlayState
    @exclusivity(unchecked) private var currentFade: Fade?
    @exclusivity(unchecked) private var releasesWhenFadeEnds = false
    @exclusivity(unchecked) private var pausesAtFadeEnd = false

    /// The file the track streams from.
    var path: String { queue.path }
    var format: AudioFormat { queue.format }
    /// The track's length in frames.
    var frameCount: Int { queue.frameCount }
    /// The channel it plays on.
    var channel: StreamChannel { streamChannel }
    /// It starts again at the loop region's start when it reaches its end.
    var isLooping: Bool { queue.isLooping }
    /// The loop region when it is not the whole track (an intro plays before it), else nil.
    var loopRegion: Range<Int>? { queue.loopRegion }
    /// Playing, paused, held by the session or waiting to start: the stream set and the session
    /// controller move it between these.
    var state: PlayState {
        get { playState }
        set { playState = newValue }
    }
    /// The track's number, which its ``MusicHandle`` carries.
    var trackID: Int { number }
    /// The gain the game asked for (moving, while ``gainFade`` runs).
    var gain: Float { requestedGain }
    /// The loudness target the game gave, if any.
    var loudnessTargetLUFS: Double? { loudness?.targetLUFS }
    /// A change of ``gain`` over time, from ``SoundEngine/setGain(_:of:fadeSeconds:curve:)-(_,MusicHandle,_,_)``.
    var gainFade: Fade? {
        get { gainChange }
        set { gainChange = newValue }
    }
    /// Sets the gain a change reached, or the game's new gain.
    func setGain(_ gain: Float) {
        requestedGain = gain
    }
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
    /// Paused once its fade ends (a pause with a fade-out); the fade is then cleared.
    var pausesWhenFadeEnds: Bool {
        get { pausesAtFadeEnd }
        set { pausesAtFadeEnd = newValue }
    }

    /// Opens the stream on `decoder`, which goes to `worker` with its ring: from here on only
    /// the thread stepping the worker's readers calls it. The ring holds `bufferCount` chunks, allocated now.
    init(trackID: Int, path: String, decoder: any AudioDecoder, worker: DecodeWorker, waitsForDecode: Bool,
         channel: StreamChannel, isLooping: Bool, gain: Float, loudness: StreamLoudness?, state: PlayState, bufferCount: Int, bufferSeconds: Double,
         loopRegion: Range<Int>?, logger: Logger) {
        self.number = trackID
        self.streamChannel = channel
        self.requestedGain = gain
        self.loudness = loudness
        self.playState = state
        queue = StreamQueue(path: path, decoder: decoder, worker: worker, waitsForDecode: waitsForDecode,
                            isLooping: isLooping, bufferCount: bufferCount,
                            bufferFrameCount: max(256, Int(Double(decoder.format.sampleRate) * bufferSeconds)),
                            loopRegion: loopRegion, downmixesToMono: false, logger: logger)
    }

    /// Frames of the track played so far, modulo the loop.
    var positionInFrames: Int { queue.positionInFrames }
    /// Set when decoding failed mid-stream: the stream plays out what is queued, then ends.
    var decodeError: InterludeError? { queue.decodeError }
    /// The damage skipped since the last call, once: for the game's event.
    func takeSkippedDamage() -> (startFrame: Int, frameCount: Int)? { queue.takeSkippedDamage() }
    /// The frame an underrun began at and the frame playback recovered on, since the last
    /// call, once: for the game's events.
    func takeUnderrunNews() -> (began: Int?, recovered: Int?) { queue.takeUnderrunNews() }
    /// Set once the last frame has been played (a one-shot track, or a failed decode).
    var isFinished: Bool { queue.isFinished }
    /// The next frame the worker reads: how far ahead of the position decoding has got.
    var decodeFrame: Int { queue.decodeFrame }
    /// Times the source ran dry while playing (a stalled update loop, or decoding behind).
    var underrunCount: Int { queue.underrunCount }
    /// True while the stream holds an AL source on the current device.
    var isAttached: Bool { queue.isAttached }
    /// PCM frames held in AL buffers and ring slots at most: the stream's memory bound.
    var maximumFramesInFlight: Int { queue.maximumFramesInFlight }

    /// The gain sent to OpenAL: the game's gain, its loudness target's, its fade and its group's.
    func effectiveGain(groupGain: Float) -> Float {
        gain * (loudness?.gain ?? 1) * (fade?.gain ?? 1) * groupGain
    }

    /// The loudness target's gain, if the track has one.
    var loudnessGain: Float? { loudness?.gain }

    // MARK: Device

    /// The track's queue, which ``StreamGroupMix`` puts on a source and takes off it.
    var streamQueue: StreamQueue { queue }

    /// Drops every AL name without touching OpenAL: the device that held them is gone.
    func forgetDevice() { queue.forgetDevice() }

    // MARK: Transport

    /// `alSourcePlay`, after any refill a seek while interrupted left to do. With nothing
    /// queued yet, the update starts it once a chunk is queued.
    func play() throws { try queue.play() }
    /// The source's place when it has something queued to play, for playing many sources in
    /// one call; nil otherwise (the update starts it when chunks come).
    var playableSlot: RenderSlot? { queue.playableSlot }
    /// `alSourcePause`.
    func pause() throws { try queue.pause() }
    /// The source's place, for pausing many sources in one call.
    var renderSlot: RenderSlot? { queue.renderSlot }

    /// Moves playback to `frame` (see ``StreamQueue/seek(toFrame:canUseAL:)``); a playing
    /// track plays on from there.
    func seek(toFrame frame: Int, canUseAL: Bool = true) throws {
        try queue.seek(toFrame: frame, canUseAL: canUseAL)
        if queue.isAttached && canUseAL && state == .playing { try play() }
    }

    /// Refills the queue from the position if a seek was made while AL could not be called.
    func prepareToResume() throws { try queue.prepareToResume() }

    /// Sets the loop region; an intro before it plays once.
    func setLoopRegion(_ region: Range<Int>) throws { try queue.setLoopRegion(region) }

    // MARK: Update

    /// One update of the queue (see ``StreamQueue/service(mayStart:waiting:)``).
    func service(mayStart: Bool, waiting: Bool) throws {
        try queue.service(mayStart: mayStart && state == .playing, waiting: waiting)
    }

    /// Reads the position from OpenAL now (before an interruption or a teardown).
    func syncPosition() throws { try queue.syncPosition() }
}
