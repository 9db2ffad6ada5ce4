/// Starts a streamed track for ``SoundEngine``'s music calls and a restore: checks the
/// arguments, opens the file and measures its loudness for a target on the calling thread
/// (never under the engine lock), then hands the decoder to ``StreamSet`` under the lock.
struct TrackStart {
    private let engine: SoundEngine

    init(engine: SoundEngine) {
        self.engine = engine
    }

    /// Opens the file at `path`, measures it for a `loudnessLUFS` target (cached while the file
    /// is unchanged) and starts it on `channel`: at `startFrame`, paused there if `startsPaused`.
    func play(path: String, channel: StreamChannel, isLooping: Bool, gain: Float, fadeInSeconds: Double,
              loopRegion: Range<Int>?, crossfadeSeconds: Double?, call: String, loudnessLUFS: Double?,
              startFrame: Int = 0, startsPaused: Bool = false) throws -> MusicHandle {
        try validate(gain: gain, fadeInSeconds: fadeInSeconds, crossfadeSeconds: crossfadeSeconds, call: call)
        if let loudnessLUFS { try Validate.loudness(loudnessLUFS, in: call) }
        try engine.ensureAlive(call)
        let decoder = try DecoderFactory.open(path: path)
        let loudness = try loudnessLUFS.map {
            StreamLoudness(targetLUFS: $0, gain: try engine.trackLoudness(ofPath: path).gain(toTarget: $0))
        }
        return try start(decoder, channel: channel, isLooping: isLooping, gain: gain, fadeInSeconds: fadeInSeconds,
                         loopRegion: loopRegion, crossfadeSeconds: crossfadeSeconds, call: call, loudness: loudness,
                         startFrame: startFrame, startsPaused: startsPaused)
    }

    /// Starts a game's own decoder on `channel`: checks that it can be streamed, and for a
    /// `loudnessLUFS` target reads it whole from frame 0 (not cached), then moves it back there.
    func play(decoder: any AudioDecoder, channel: StreamChannel, isLooping: Bool, gain: Float, fadeInSeconds: Double,
              loopRegion: Range<Int>?, crossfadeSeconds: Double?, call: String, loudnessLUFS: Double?) throws -> MusicHandle {
        try decoder.format.checkSupported(in: call)
        guard decoder.frameCount >= 0 else {
            throw InterludeError(.unsupportedFormat, "\(call): a decoder of \(decoder.frameCount) frames is not supported")
        }
        var loudness: StreamLoudness?
        if let loudnessLUFS {
            try Validate.loudness(loudnessLUFS, in: call)
            try decoder.seek(toFrame: 0)
            let gain = try Loudness.measure(decoder: decoder).gain(toTarget: loudnessLUFS)
            try decoder.seek(toFrame: 0)
            loudness = StreamLoudness(targetLUFS: loudnessLUFS, gain: gain)
        }
        return try start(decoder, channel: channel, isLooping: isLooping, gain: gain, fadeInSeconds: fadeInSeconds,
                         loopRegion: loopRegion, crossfadeSeconds: crossfadeSeconds, call: call, loudness: loudness)
    }

    /// Opens a track's stems and checks them against each other and its tempo, measures their
    /// sum for a loudness target, and starts them on `channel` as one soundtrack: at
    /// `startFrame`, paused there if `startsPaused`. `gains` override the track's starting
    /// stem gains. Errors name the track and the stem.
    func play(track: MusicTrack, channel: StreamChannel, gain: Float, gains: [String: Float], fadeInSeconds: Double,
              crossfadeSeconds: Double?, call: String, startFrame: Int = 0, startsPaused: Bool = false) throws -> MusicHandle {
        try validate(gain: gain, fadeInSeconds: fadeInSeconds, crossfadeSeconds: crossfadeSeconds, call: call)
        var track = track
        track.gains.merge(gains) { $1 }
        let (stems, loudness) = try open(track, call: call)
        let engineID = engine.engineID
        return try engine.withCore(call) { core in
            let trackID = try core.streams.play(stems: stems, trackName: track.name, tempo: track.tempo,
                                                raisesBeatEvents: track.raisesBeatEvents, channel: channel,
                                                isLooping: track.isLooping, gain: gain, fadeInSeconds: fadeInSeconds,
                                                loopRegion: track.loopRegion, crossfadeSeconds: crossfadeSeconds, call: call,
                                                loudness: loudness, startFrame: startFrame, startsPaused: startsPaused)
            core.conductor.channelReplaced(channel)
            return MusicHandle(channel: channel, trackID: trackID, engineID: engineID)
        }
    }

    /// Opens a track's stems as ``play(track:channel:gain:gains:fadeInSeconds:crossfadeSeconds:call:startFrame:startsPaused:)``
    /// does, then hands them to the conductor, which starts the track on the next `quantize`
    /// boundary of the one playing. Returns the new track's handle, or nil when the track
    /// already plays (nothing changes).
    func transition(to track: MusicTrack, channel: StreamChannel, gain: Float, quantize: MusicQuantize, entry: MusicEntry,
                    fadeSeconds: Double, call: String) throws -> MusicHandle? {
        try validate(gain: gain, fadeInSeconds: fadeSeconds, crossfadeSeconds: nil, call: call)
        let (stems, loudness) = try open(track, call: call)
        return try engine.withCore(call) { core in
            try core.conductor.transition(on: channel, trackName: track.name, quantize: quantize, entry: entry,
                                          fadeSeconds: fadeSeconds, call: call) { startFrame in
                try core.streams.make(stems: stems, trackName: track.name, tempo: track.tempo,
                                      raisesBeatEvents: track.raisesBeatEvents, channel: channel, isLooping: track.isLooping,
                                      gain: gain, loopRegion: track.loopRegion, loudness: loudness, startFrame: startFrame,
                                      state: .playing)
            }
        }
    }

    /// Checks `track`, opens its stems and, for a loudness target, measures their sum on the
    /// decoders just opened (then moved back to frame 0): the steps a play and a transition share,
    /// on the calling thread.
    private func open(_ track: MusicTrack, call: String) throws -> (stems: [TrackStem], loudness: StreamLoudness?) {
        try track.validateShape(in: call)
        try engine.ensureAlive(call)
        let decoders = try Self.openStems(of: track, in: call)
        try decoders[0].format.checkSupported(in: "\(call): track \"\(track.name)\"")
        var loudness: StreamLoudness?
        if let target = track.loudnessLUFS {
            loudness = StreamLoudness(targetLUFS: target, gain: try Loudness.measure(sumOf: decoders).gain(toTarget: target))
            for decoder in decoders { try decoder.seek(toFrame: 0) }
        }
        let stems = zip(track.stems, zip(decoders, track.startingGains)).map { stem, opened in
            TrackStem(name: stem.name, path: stem.path, decoder: opened.0, gain: opened.1)
        }
        return (stems, loudness)
    }

    /// The loudness of a track's stems played together at gain 1, decoded on the calling thread.
    static func measureLoudness(of track: MusicTrack, in call: String) throws -> Loudness {
        try Loudness.measure(sumOf: openStems(of: track, in: call))
    }

    /// Opens every stem of `track` and checks that they share one rate and length, and that
    /// its tempo fits them. Errors name the track and the stem.
    static func openStems(of track: MusicTrack, in call: String) throws -> [any AudioDecoder] {
        var decoders: [any AudioDecoder] = []
        for stem in track.stems {
            let decoder: any AudioDecoder
            do {
                decoder = try DecoderFactory.open(path: stem.path)
            } catch let error as InterludeError {
                throw InterludeError(error.code, "\(call): track \"\(track.name)\", stem \"\(stem.name)\": \(error.message)")
            }
            if let first = decoders.first {
                guard decoder.format.sampleRate == first.format.sampleRate else {
                    throw InterludeError(.invalidArgument, "\(call): track \"\(track.name)\", stem \"\(stem.name)\": its rate is \(decoder.format.sampleRate) Hz, stem \"\(track.stems[0].name)\"'s is \(first.format.sampleRate) Hz; a track's stems share one rate")
                }
                guard decoder.frameCount == first.frameCount else {
                    throw InterludeError(.invalidArgument, "\(call): track \"\(track.name)\", stem \"\(stem.name)\": it has \(decoder.frameCount) frames, stem \"\(track.stems[0].name)\" has \(first.frameCount); a track's stems share one length")
                }
            }
            decoders.append(decoder)
        }
        try track.tempo?.validate(frameCount: decoders[0].frameCount, sampleRate: decoders[0].format.sampleRate,
                                  in: "\(call): track \"\(track.name)\"")
        return decoders
    }

    /// Hands an open decoder to the streams under the lock; it goes to the decode thread.
    private func start(_ decoder: any AudioDecoder, channel: StreamChannel, isLooping: Bool, gain: Float,
                       fadeInSeconds: Double, loopRegion: Range<Int>?, crossfadeSeconds: Double?, call: String,
                       loudness: StreamLoudness?, startFrame: Int = 0, startsPaused: Bool = false) throws -> MusicHandle {
        try validate(gain: gain, fadeInSeconds: fadeInSeconds, crossfadeSeconds: crossfadeSeconds, call: call)
        let engineID = engine.engineID
        let stem = TrackStem(name: "", path: decoder.path, decoder: decoder, gain: 1)
        return try engine.withCore(call) { core in
            let trackID = try core.streams.play(stems: [stem], channel: channel, isLooping: isLooping,
                                                gain: gain, fadeInSeconds: fadeInSeconds, loopRegion: loopRegion,
                                                crossfadeSeconds: crossfadeSeconds, call: call, loudness: loudness,
                                                startFrame: startFrame, startsPaused: startsPaused)
            core.conductor.channelReplaced(channel)
            return MusicHandle(channel: channel, trackID: trackID, engineID: engineID)
        }
    }

    private func validate(gain: Float, fadeInSeconds: Double, crossfadeSeconds: Double?, call: String) throws {
        try Validate.gain(gain, in: call)
        try Validate.seconds(fadeInSeconds, "fadeSeconds", in: call)
        if let crossfadeSeconds { try Validate.seconds(crossfadeSeconds, "fadeSeconds", in: call) }
    }
}
