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

    /// Hands an open decoder to the streams under the lock; it goes to the decode thread.
    private func start(_ decoder: any AudioDecoder, channel: StreamChannel, isLooping: Bool, gain: Float,
                       fadeInSeconds: Double, loopRegion: Range<Int>?, crossfadeSeconds: Double?, call: String,
                       loudness: StreamLoudness?, startFrame: Int = 0, startsPaused: Bool = false) throws -> MusicHandle {
        try validate(gain: gain, fadeInSeconds: fadeInSeconds, crossfadeSeconds: crossfadeSeconds, call: call)
        let engineID = engine.engineID
        return try engine.withCore(call) { core in
            let trackID = try core.streams.play(path: decoder.path, decoder: decoder, channel: channel, isLooping: isLooping,
                                                gain: gain, fadeInSeconds: fadeInSeconds, loopRegion: loopRegion,
                                                crossfadeSeconds: crossfadeSeconds, call: call, loudness: loudness,
                                                startFrame: startFrame, startsPaused: startsPaused)
            return MusicHandle(channel: channel, trackID: trackID, engineID: engineID)
        }
    }

    private func validate(gain: Float, fadeInSeconds: Double, crossfadeSeconds: Double?, call: String) throws {
        try Validate.gain(gain, in: call)
        try Validate.seconds(fadeInSeconds, "fadeSeconds", in: call)
        if let crossfadeSeconds { try Validate.seconds(crossfadeSeconds, "fadeSeconds", in: call) }
    }
}
