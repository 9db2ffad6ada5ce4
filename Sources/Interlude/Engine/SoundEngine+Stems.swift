extension SoundEngine {
    /// Streams a track of stems on `channel` (the soundtrack by default), replacing any, and
    /// returns its handle. Every stem starts on the same frame and stays on it: pause, resume,
    /// interruptions, device loss and loops move them together. The stems' files are opened
    /// now, and must share one rate and length: a missing or bad file, a mismatch, a bad tempo
    /// or a gain for a stem the track does not have throws, naming the track and the stem.
    ///
    /// ```swift
    /// let explore = MusicTrack(name: "explore",
    ///                          stems: [.init(name: "drums", path: "music/drums.ogg"),
    ///                                  .init(name: "strings", path: "music/strings.ogg")],
    ///                          tempo: MusicTempo(bpm: 120),
    ///                          gains: ["strings": 0])
    /// let music = try engine.playMusic(explore)
    /// try engine.setGain(1, ofStem: "strings", of: music, fadeSeconds: 2)
    /// ```
    /// - Parameters:
    ///   - track: the stems, their tempo, loop and starting gains, and a loudness target
    ///     measured on the stems' sum (on the calling thread, before it starts).
    ///   - channel: the stream channel: the soundtrack, or the ambience beside it.
    ///   - gain: scales every stem, times the track's group.
    ///   - gains: stem gains that override the track's starting ones.
    ///   - fadeSeconds: an equal-power fade in.
    /// Any thread.
    @discardableResult
    public func playMusic(_ track: MusicTrack, channel: StreamChannel = .music, gain: Float = 1,
                          gains: [String: Float] = [:], fadeSeconds: Double = 0) throws -> MusicHandle {
        try TrackStart(engine: self).play(track: track, channel: channel, gain: gain, gains: gains, fadeInSeconds: fadeSeconds,
                                          crossfadeSeconds: nil, call: "playMusic(\(track.name))")
    }

    /// Crossfades `channel` to a track of stems over `fadeSeconds`, equal-power, as
    /// ``crossfadeMusic(toPath:fadeSeconds:channel:isLooping:gain:loopRegion:loudnessLUFS:)``
    /// does for a file. Any thread.
    @discardableResult
    public func crossfadeMusic(to track: MusicTrack, fadeSeconds: Double, channel: StreamChannel = .music, gain: Float = 1,
                               gains: [String: Float] = [:]) throws -> MusicHandle {
        try TrackStart(engine: self).play(track: track, channel: channel, gain: gain, gains: gains, fadeInSeconds: 0,
                                          crossfadeSeconds: fadeSeconds, call: "crossfadeMusic(to: \(track.name))")
    }

    /// Changes `channel` (the soundtrack by default) to `track` on the next `quantize` boundary
    /// of the track playing there, in that track's own time: at once, on the next beat, bar,
    /// or the end of its loop. Music time stands still while the soundtrack does: a transition
    /// waiting when an interruption begins happens when the resumed music reaches its boundary,
    /// never in the silence. The new track comes in from its start, or in `.sync` on the same
    /// beat of the bar; with `fadeSeconds` 0 it cuts on the boundary, otherwise it crossfades
    /// (equal power) from it. A new transition replaces a waiting one; one to the track
    /// already playing only cancels a waiting one. With nothing playing, or a plain file with
    /// no beat grid, it happens at once. The stems are opened now, on the calling thread.
    /// Returns the new track's handle (it answers once the transition happened), or nil when
    /// `track` already plays.
    ///
    /// ```swift
    /// try engine.transitionMusic(to: combat, quantize: .bar, entry: .sync)
    /// ```
    /// Any thread.
    @discardableResult
    public func transitionMusic(to track: MusicTrack, quantize: MusicQuantize = .bar, entry: MusicEntry = .start,
                                fadeSeconds: Double = 0, channel: StreamChannel = .music, gain: Float = 1) throws -> MusicHandle? {
        try TrackStart(engine: self).transition(to: track, channel: channel, gain: gain, quantize: quantize, entry: entry,
                                                fadeSeconds: fadeSeconds, call: "transitionMusic(to: \(track.name))")
    }

    /// Plays `sound` once, unpositioned, in the music group, from the next `quantize` boundary
    /// of the soundtrack playing now (on `channel`). It is part of the soundtrack: silent while
    /// it is interrupted, paused and resumed with it, stopped by its stop. Given during an
    /// interruption it waits in music time; if the track stops or is replaced before the
    /// boundary, the stinger is cancelled (``MusicEvent/stingerCancelled(sound:mixFrame:)``). With
    /// nothing playing, or a plain file with no beat grid, it plays at once. Any thread.
    public func playStinger(_ sound: Sound, quantize: MusicQuantize = .beat, gain: Float = 1,
                            channel: StreamChannel = .music) throws {
        let call = "playStinger(\(sound.name))"
        try Validate.gain(gain, in: call)
        try withCore(call) { core in try core.conductor.stinger(sound, on: channel, quantize: quantize, gain: gain, call: call) }
    }

    /// Defines `track` under its name, replacing a track of that name, so that the game (or a
    /// cue bank, whose `tracks` come here) names it in one place and plays it by name
    /// (``musicTrack(named:)``). Its stems are opened and checked now, on the calling thread,
    /// as ``playMusic(_:channel:gain:gains:fadeSeconds:)`` would: a bad track throws naming the
    /// track and the stem, and is not defined. A track already playing plays on as it was.
    /// Any thread.
    public func defineTrack(_ track: MusicTrack) throws {
        let call = "defineTrack(\(track.name))"
        try track.validate(in: call)
        try withCore(call) { $0.trackLibrary.define(track) }
    }

    /// The track defined as `name` (``defineTrack(_:)``), or nil. Any thread.
    public func musicTrack(named name: String) -> MusicTrack? {
        readCore { $0.trackLibrary.track(named: name) }
    }

    /// Sets one stem's gain (>= 0; the track's and its group's gains multiply it): at once, or
    /// moving there over `fadeSeconds` along `curve` while the track plays. A stem at gain 0
    /// keeps its place. Kept while interrupted. Throws `.invalidArgument` when the track has no
    /// such stem; a handle whose track no longer plays does nothing. Any thread.
    public func setGain(_ gain: Float, ofStem stem: String, of music: MusicHandle, fadeSeconds: Double = 0,
                        curve: FadeCurve = .linear) throws {
        try setGains([stem: gain], ofStemsOf: music, fadeSeconds: fadeSeconds, curve: curve)
    }

    /// Sets several stems' gains at once, or moving together over `fadeSeconds`, as
    /// ``setGain(_:ofStem:of:fadeSeconds:curve:)`` does for one. Any thread.
    public func setGains(_ gains: [String: Float], ofStemsOf music: MusicHandle, fadeSeconds: Double = 0,
                         curve: FadeCurve = .linear) throws {
        let call = "setGains(\(gains.keys.sorted()), ofStemsOf: \(music))"
        for (stem, gain) in gains { try Validate.gain(gain, in: "\(call): stem \"\(stem)\"") }
        try Validate.seconds(fadeSeconds, "fadeSeconds", in: call)
        try withCore(call) { core in
            try core.streams.setStemGains(gains.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, of: music,
                                          fadeSeconds: fadeSeconds, curve: curve, call: call)
        }
    }

    /// A stem's gain now (moving, during a change), or nil when the track no longer sounds or
    /// has no such stem. Any thread.
    public func gain(ofStem stem: String, of music: MusicHandle) -> Float? {
        readCore { $0.streams.gain(ofStem: stem, of: music) }
    }

    /// The names of the track's stems, in order (empty for a plain file), or nil once it no
    /// longer sounds. Any thread.
    public func stemNames(of music: MusicHandle) -> [String]? {
        readCore { $0.streams.stemNames(of: music) }
    }

    /// Where the track stands in its music's time: bar and beat (from 1) and frame. nil once
    /// it no longer sounds, for a track with no tempo, and before its first beat. Any thread.
    public func musicPosition(of music: MusicHandle) -> MusicPosition? {
        readCore { $0.streams.musicPosition(of: music) }
    }

    /// The integrated loudness of a track's stems played together at gain 1 (see
    /// ``Loudness``), as its loudness target uses it: measured on the calling thread, decoding
    /// every stem whole. Errors name the track and the stem. Any thread; never takes the
    /// engine's lock.
    public func measureLoudness(of track: MusicTrack) throws -> Loudness {
        let call = "measureLoudness(of: \(track.name))"
        try track.validateShape(in: call)
        return try TrackStart.measureLoudness(of: track, in: call)
    }
}
