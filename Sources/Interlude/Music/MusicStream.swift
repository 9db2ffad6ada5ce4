import Logging

/// A streamed track on a stream channel: one ``StreamQueue`` per stem (each of which
/// ``StreamGroupMix`` puts on a source of its own, straight to the output), with the channel's
/// gain, fade and play state, and each stem's gain. A plain track is one stem. The stems start,
/// pause and seek together, so they always stand on the same frame; the first stem's queue is
/// the one whose position, format and end speak for the track.
final class MusicStream {
    /// The stems' queues, in the track's order; never empty.
    private let queues: [StreamQueue]
    /// The first stem's queue.
    private let queue: StreamQueue
    private let names: [String]
    @exclusivity(unchecked) private var stemLevels: [Float]
    @exclusivity(unchecked) private var stemChanges: [Fade?]
    private let grid: MusicTempo?
    private let title: String?
    private let beatEvents: Bool
    @exclusivity(unchecked) private var plan: TransitionPlan?
    private let streamChannel: StreamChannel
    private let number: Int
    @exclusivity(unchecked) private var requestedGain: Float
    private let loudness: StreamLoudness?
    @exclusivity(unchecked) private var gainChange: Fade?
    @exclusivity(unchecked) private var playState: PlayState
    @exclusivity(unchecked) private var currentFade: Fade?
    @exclusivity(unchecked) private var releasesWhenFadeEnds = false
    @exclusivity(unchecked) private var pausesAtFadeEnd = false

    /// The file the track streams from (its first stem's).
    var path: String { queue.path }
    /// The track's name, for a track of stems.
    var trackName: String? { title }
    /// Its beat grid, if it has one.
    var tempo: MusicTempo? { grid }
    /// The game hears its beats (``MusicEvent/beat(_:track:position:mixFrame:)``).
    var raisesBeatEvents: Bool { beatEvents }
    /// Frames played in all since it started, as of the last position read: the music's own
    /// clock, which stands still while the track does, never wraps, and a seek does not move.
    var musicClockFrames: Int { queue.musicClockFrames }
    /// The track's name for events: its own, or its file's path for a plain track.
    var displayName: String { title ?? queue.path }
    /// The stems' names, in order (one unnamed stem for a plain track).
    var stemNames: [String] { names }
    /// The stems' files, in order.
    var stemPaths: [String] { queues.map(\.path) }
    /// The stems' queues, which ``StreamGroupMix`` puts on sources and takes off them.
    var stemQueues: [StreamQueue] { queues }
    /// A stem's own gain (moving, while its change runs).
    func stemGain(at index: Int) -> Float { stemLevels[index] }
    /// Sets a stem's gain at once, ending any change of it.
    func setStemGain(_ gain: Float, at index: Int) {
        stemLevels[index] = gain
        stemChanges[index] = nil
    }
    /// Moves a stem's gain to `gain` over `seconds` along `curve` while the track plays.
    func changeStemGain(to gain: Float, at index: Int, overSeconds seconds: Double, curve: FadeCurve) {
        stemChanges[index] = Fade(startGain: stemLevels[index], targetGain: gain, durationSeconds: seconds, curve: curve)
    }
    /// Advances the stems' gain changes; returns whether any gain moved.
    func advanceStemGains(bySeconds seconds: Double) -> Bool {
        var moved = false
        for index in stemChanges.indices {
            guard var change = stemChanges[index] else { continue }
            change.advance(bySeconds: seconds)
            stemLevels[index] = change.gain
            stemChanges[index] = change.isFinished ? nil : change
            moved = true
        }
        return moved
    }
    /// How it comes in, while it waits for its boundary as a transition's track.
    var transitionPlan: TransitionPlan? {
        get { plan }
        set { plan = newValue }
    }

    /// The track of stems as it stands (each stem at its gain now), for a snapshot; nil for a
    /// plain file.
    var musicTrack: MusicTrack? {
        guard let title else { return nil }
        return MusicTrack(name: title, stems: zip(names, queues).map { MusicTrack.Stem(name: $0, path: $1.path) }, tempo: grid,
                          isLooping: isLooping, loopRegion: loopRegion,
                          gains: Dictionary(uniqueKeysWithValues: zip(names, stemLevels)),
                          loudnessLUFS: loudness?.targetLUFS, raisesBeatEvents: beatEvents)
    }

    /// The index of the stem named `name`, if the track has one.
    func stemIndex(named name: String) -> Int? { names.firstIndex(of: name) }
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
    /// The stems must share one rate and length (``TrackStart`` checks); a track of stems has
    /// `trackName`.
    init(trackID: Int, stems: [TrackStem], trackName: String?, tempo: MusicTempo?, raisesBeatEvents: Bool = false,
         worker: DecodeWorker, waitsForDecode: Bool,
         channel: StreamChannel, isLooping: Bool, gain: Float, loudness: StreamLoudness?, state: PlayState, bufferCount: Int, bufferFrameCount: Int,
         logger: Logger) {
        precondition(!stems.isEmpty, "a track has at least one stem")
        self.number = trackID
        self.streamChannel = channel
        self.requestedGain = gain
        self.loudness = loudness
        self.playState = state
        title = trackName
        grid = tempo
        beatEvents = raisesBeatEvents && tempo != nil
        names = stems.map(\.name)
        stemLevels = stems.map(\.gain)
        stemChanges = Array(repeating: nil, count: stems.count)
        queues = stems.map { stem in
            StreamQueue(path: stem.path, decoder: stem.decoder, worker: worker, waitsForDecode: waitsForDecode,
                        isLooping: isLooping, bufferCount: bufferCount,
                        bufferFrameCount: bufferFrameCount,
                        loopRegion: nil, downmixesToMono: false, logger: logger)
        }
        queue = queues[0]
    }

    /// Frames of the track played so far, modulo the loop.
    var positionInFrames: Int { queue.positionInFrames }
    /// Set when decoding failed mid-stream: the stream plays out what is queued, then ends.
    var decodeError: InterludeError? { queues.lazy.compactMap(\.decodeError).first }
    /// The damage skipped since the last call, once: for the game's event.
    func takeSkippedDamage() -> (startFrame: Int, frameCount: Int)? {
        var first: (startFrame: Int, frameCount: Int)?
        for stem in queues { if let damage = stem.takeSkippedDamage(), first == nil { first = damage } }
        return first
    }
    /// The frame an underrun began at and the frame playback recovered on, since the last
    /// call, once: for the game's events.
    func takeUnderrunNews() -> (began: Int?, recovered: Int?) { queue.takeUnderrunNews() }
    /// Set once a stem's last frame has been played (a one-shot track, or a failed decode).
    var isFinished: Bool { queues.contains { $0.isFinished } }
    /// The next frame the worker reads: how far ahead of the position decoding has got.
    var decodeFrame: Int { queue.decodeFrame }
    /// Times a source ran dry while playing (a stalled update loop, or decoding behind).
    var underrunCount: Int { queues.reduce(0) { $0 + $1.underrunCount } }
    /// True while the stream holds an AL source on the current device.
    var isAttached: Bool { queue.isAttached }
    /// PCM frames held in AL buffers and ring slots at most: the stream's memory bound.
    var maximumFramesInFlight: Int { queues.reduce(0) { $0 + $1.maximumFramesInFlight } }

    /// The gain sent to OpenAL: the game's gain, its loudness target's, its fade and its group's.
    func effectiveGain(groupGain: Float) -> Float {
        gain * (loudness?.gain ?? 1) * (fade?.gain ?? 1) * groupGain
    }

    /// The loudness target's gain, if the track has one.
    var loudnessGain: Float? { loudness?.gain }

    // MARK: Device

    /// Drops every AL name without touching OpenAL: the device that held them is gone.
    func forgetDevice() {
        for stem in queues { stem.forgetDevice() }
    }

    // MARK: Transport

    /// The places of the stems' sources when every stem has something queued to play, for
    /// playing them in one call (with others); empty otherwise: the update starts them together
    /// once each has a chunk.
    var playableSlots: [RenderSlot] {
        let slots = queues.compactMap(\.playableSlot)
        return slots.count == queues.count ? slots : []
    }
    /// The places of the stems' sources, for pausing them in one call.
    var renderSlots: [RenderSlot] { queues.compactMap(\.renderSlot) }

    /// Moves every stem to `frame` (see ``StreamQueue/seek(toFrame:canUseAL:)``). The caller
    /// starts a playing track again.
    func seek(toFrame frame: Int, canUseAL: Bool = true) throws {
        for stem in queues { try stem.seek(toFrame: frame, canUseAL: canUseAL) }
    }

    /// Refills the queues from the position if a seek was made while AL could not be called.
    func prepareToResume() throws {
        for stem in queues { try stem.prepareToResume() }
    }

    /// Sets the loop region of every stem; an intro before it plays once.
    func setLoopRegion(_ region: Range<Int>) throws {
        for stem in queues { try stem.setLoopRegion(region) }
    }

    // MARK: Update

    /// One update of the stems' queues (see ``StreamQueue/service(mayStart:waiting:)``). A
    /// track of one stem starts its source itself once it has audio; a track of several never
    /// lets a stem start alone, and says what its stems need instead.
    func service(mayStart: Bool, waiting: Bool) throws -> StemStart {
        let starts = mayStart && state == .playing
        guard queues.count > 1 else {
            try queue.service(mayStart: starts, waiting: waiting)
            return .none
        }
        for stem in queues { try stem.service(mayStart: false, waiting: waiting) }
        guard starts, !isFinished else { return .none }
        var playingCount = 0
        for stem in queues where stem.wasPlayingAtService { playingCount += 1 }
        if playingCount == queues.count { return .none }
        if playingCount > 0 { return .realign }
        return playableSlots.isEmpty ? .none : .startTogether
    }

    /// The earliest frame a stem stands on: where a stem that ran dry stopped.
    var earliestStemPosition: Int { queues.map(\.positionInFrames).min() ?? 0 }

    /// Reads the position from OpenAL now (before an interruption or a teardown).
    func syncPosition() throws {
        for stem in queues { try stem.syncPosition() }
    }
}

/// How a transition's track comes in on its boundary.
struct TransitionPlan {
    let quantize: MusicQuantize
    let entry: MusicEntry
    let fadeSeconds: Double
}

/// What a track of several stems needs after an update.
enum StemStart {
    /// Nothing: they play together, or wait.
    case none
    /// Every stem has audio queued and none plays: start them in one call.
    case startTogether
    /// Some stems play and another ran dry: pause them all and move them to the frame the dry
    /// one stopped on, so that they start together again.
    case realign
}

/// One stem as a track opens it: its name, its file's decoder and its starting gain.
struct TrackStem {
    let name: String
    let path: String
    let decoder: any AudioDecoder
    let gain: Float
}
