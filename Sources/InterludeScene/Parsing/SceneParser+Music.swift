import Interlude

/// Version 4's adaptive music in a scene file: the top-level `tracks`, the `music.play` of a
/// track, and the checks of the events that name tracks and stems.
extension SceneParser {
    static let trackKeys: Set = ["stems", "bpm", "beatsPerBar", "firstBeat", "loop", "loopStart", "loopEnd", "gains", "loudness",
                                 "beatEvents"]

    /// The `tracks` object: name -> track. Stems must be in `sounds`; whether they share a
    /// rate and a length, and whether `firstBeat` is inside them, is checked once they are
    /// opened (``SceneDirector``).
    static func tracks(_ top: SceneFieldReader, fileName: String, sounds: [String: String]) throws -> [String: SceneTrack] {
        guard let value = top.value("tracks") else { return [:] }
        guard case .object(let entries) = value else {
            throw top.error("\"tracks\" must be an object of name -> track, got \(SceneFieldReader.excerpt(of: value))")
        }
        var tracks: [String: SceneTrack] = [:]
        for (name, entry) in entries {
            let fields = try SceneFieldReader(entry, context: "\(fileName): track \(SceneFieldReader.quoted(name))",
                                              allowedKeys: trackKeys)
            guard !name.isEmpty else { throw fields.error("a track needs a name") }
            let stemList = try fields.require("stems") { fields.value($0) }
            guard case .object(let stemEntries) = stemList, !stemEntries.isEmpty else {
                throw fields.error("\"stems\" must be an object of one or more stem name -> sound name, got \(SceneFieldReader.excerpt(of: stemList))")
            }
            let stems = try stemEntries.map { stem, sound in
                guard !stem.isEmpty, case .string(let soundName) = sound else {
                    throw fields.error("stem \(SceneFieldReader.quoted(stem)): the sound must be a name in \"sounds\", got \(SceneFieldReader.excerpt(of: sound))")
                }
                guard sounds[soundName] != nil else {
                    throw fields.error("stem \(SceneFieldReader.quoted(stem)): unknown sound \(SceneFieldReader.quoted(soundName)): not in \"sounds\"")
                }
                return SceneTrack.Stem(name: stem, sound: soundName)
            }
            let bpm = try fields.require("bpm") { try fields.number($0, "a number of beats per minute > 0") { $0 > 0 && $0.isFinite } }
            let beatsPerBar = try fields.integer("beatsPerBar", in: 1...Int.max, expectation: "an integer >= 1") ?? 4
            let firstBeat = try fields.number("firstBeat", "a number of seconds >= 0") { $0 >= 0 && $0.isFinite } ?? 0
            var track = SceneTrack(stems: stems, tempo: MusicTempo(bpm: bpm, beatsPerBar: beatsPerBar, firstBeatSeconds: firstBeat))
            track.loop = try fields.bool("loop") ?? true
            track.loopPoints = try loopPoints(fields)
            track.loudnessLUFS = try fields.loudness("loudness")
            track.beatEvents = try fields.bool("beatEvents") ?? false
            track.gains = Dictionary(uniqueKeysWithValues: try stemGains(fields, track: track).map { ($0.stem, $0.gain) })
            tracks[name] = track
        }
        return tracks
    }

    /// A `gains` object of stem name -> gain >= 0, every name a stem of `track`, in file order.
    static func stemGains(_ fields: SceneFieldReader, track: SceneTrack?) throws -> [(stem: String, gain: Float)] {
        guard let value = fields.value("gains") else { return [] }
        guard case .object(let entries) = value else {
            throw fields.error("\"gains\" must be an object of stem name -> gain, got \(SceneFieldReader.excerpt(of: value))")
        }
        return try entries.map { stem, gain in
            if let track, !track.hasStem(stem) {
                throw fields.error("\"gains\" names stem \(SceneFieldReader.quoted(stem)), which the track does not have")
            }
            guard case .number(let number) = gain, number >= 0, Float(number).isFinite else {
                throw fields.error("\"gains\": stem \(SceneFieldReader.quoted(stem)): the gain must be a number >= 0, got \(SceneFieldReader.excerpt(of: gain))")
            }
            return (stem, Float(number))
        }
    }

    /// `music.play`: a sound (versions 1-3) or a track (version 4), never both; a track brings
    /// its own loop.
    static func musicPlay(_ event: SceneFieldReader) throws -> SceneAction {
        guard let track = try event.name("track") else {
            guard event.value("gains") == nil else { throw event.error("\"gains\" needs \"track\"") }
            return .musicPlay(
                sound: try event.require("sound", event.name), loop: try event.bool("loop") ?? true,
                gain: try event.gain("gain") ?? 1, fadeInSeconds: try event.seconds("fadeIn") ?? 0,
                loopPoints: try loopPoints(event), loudnessLUFS: try event.loudness("loudness")
            )
        }
        if event.value("sound") != nil { throw event.error("give \"sound\" or \"track\", not both") }
        for key in ["loop", "loopStart", "loopEnd"] where event.value(key) != nil {
            throw event.error("\"\(key)\" belongs to the track, not to a music.play of it")
        }
        // The gains' stems are checked against the track once the tracks are known.
        return .musicPlayTrack(SceneTrackPlay(track: track, gain: try event.gain("gain") ?? 1,
                                              fadeInSeconds: try event.seconds("fadeIn") ?? 0,
                                              gains: try stemGains(event, track: nil), loudnessLUFS: try event.loudness("loudness")))
    }

    /// Every track an event names is in `tracks`, and every stem it names is one of that
    /// track's (`music.play`) or of some track's (`music.stem`).
    static func checkMusicEvents(_ events: [SceneEvent], fileName: String, tracks: [String: SceneTrack]) throws {
        for event in events {
            let context = "\(fileName): event \(event.index) (\(event.action.name))"
            switch event.action {
            case .musicPlayTrack(let play):
                guard let track = tracks[play.track] else {
                    throw SceneFieldReader.error(context, "unknown track \(SceneFieldReader.quoted(play.track)): not in \"tracks\"")
                }
                if let stem = play.gains.first(where: { !track.hasStem($0.stem) }) {
                    throw SceneFieldReader.error(context, "\"gains\" names stem \(SceneFieldReader.quoted(stem.stem)), which track \(SceneFieldReader.quoted(play.track)) does not have")
                }
            case .musicTransition(let track, _, _, _) where tracks[track] == nil:
                throw SceneFieldReader.error(context, "unknown track \(SceneFieldReader.quoted(track)): not in \"tracks\"")
            case .musicStem(let stem, _, _) where !tracks.values.contains(where: { $0.hasStem(stem) }):
                throw SceneFieldReader.error(context, "no track has a stem \(SceneFieldReader.quoted(stem))")
            default:
                break
            }
        }
    }
}
