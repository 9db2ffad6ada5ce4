import Interlude

extension SceneAction {
    /// What kind of marker the action gets on a plot's time axis.
    public var markerKind: RenderTimeline.Marker.Kind {
        switch self {
        case .set, .listener: .move
        case .cue, .parameter, .snapshotStart, .snapshotStop: .soundDesign
        default: .event
        }
    }

    /// The label of the action's marker on a plot's time axis: its name, and for the sound
    /// designer's actions the cue, parameter or snapshot it names.
    public var markerLabel: String {
        switch self {
        case .cue(let play): "cue \(play.cue)"
        case .parameter(let name, _, _): "\(name) parameter"
        case .snapshotStart(let name, _): "\(name) snapshot on"
        case .snapshotStop(let name, _): "\(name) snapshot off"
        default: name
        }
    }

    /// The action's fields for a render log line, in a fixed order, under their scene-file
    /// keys, defaults applied; optional fields appear only when set. Without `at` and `do`:
    /// a log line adds its own `frame`, `event` and `do` (see `name`).
    public var logFields: [(key: String, value: JSONValue)] {
        switch self {
        case .play(let play):
            var fields: [(key: String, value: JSONValue)] = [("sound", .string(play.sound))]
            if let id = play.id { fields.append(("id", .string(id))) }
            if let position = play.position { fields.append(("position", JSONValue(position))) }
            return fields + [
                ("gain", JSONValue(play.gain)), ("pitch", JSONValue(play.pitch)), ("loop", .bool(play.loop)),
                ("group", .string(play.group)), ("priority", .number(Double(play.priority))),
            ] + (play.reverbZone.map { [("reverbZone", JSONValue.string($0))] } ?? [])
              + (play.lowPassGainHF < 1 ? [("lowPass", JSONValue(play.lowPassGainHF))] : [])
        case .stop(let id), .pause(let id), .resume(let id):
            return [("id", .string(id))]
        case .set(let change):
            var fields: [(key: String, value: JSONValue)] = [("id", .string(change.id))]
            if let position = change.position { fields.append(("position", JSONValue(position))) }
            if let gain = change.gain { fields.append(("gain", JSONValue(gain))) }
            if let pitch = change.pitch { fields.append(("pitch", JSONValue(pitch))) }
            return fields
        case .listener(let change):
            var fields: [(key: String, value: JSONValue)] = []
            if let position = change.position { fields.append(("position", JSONValue(position))) }
            if let forward = change.forward { fields.append(("forward", JSONValue(forward))) }
            if let up = change.up { fields.append(("up", JSONValue(up))) }
            if let gain = change.gain { fields.append(("gain", JSONValue(gain))) }
            return fields
        case .musicPlay(let sound, let loop, let gain, let fadeInSeconds, let loopPoints, let loudnessLUFS):
            return [("sound", .string(sound)), ("loop", .bool(loop)), ("gain", JSONValue(gain)), ("fadeIn", .number(fadeInSeconds))]
                + Self.logFields(of: loopPoints) + (loudnessLUFS.map { [("loudness", JSONValue.number($0))] } ?? [])
        case .musicCrossfade(let sound, let durationSeconds, let loop, let loopPoints, let loudnessLUFS):
            return [("sound", .string(sound)), ("duration", .number(durationSeconds)), ("loop", .bool(loop))]
                + Self.logFields(of: loopPoints) + (loudnessLUFS.map { [("loudness", JSONValue.number($0))] } ?? [])
        case .group(let name, let gain, let durationSeconds):
            return [("name", .string(name)), ("gain", JSONValue(gain)), ("duration", .number(durationSeconds))]
        case .systemSound(let sound):
            return [("sound", .string(sound))]
        case .interruptionBegin(let reason, let source):
            return [("reason", .string(reason))] + (source.map { [("source", .string($0))] } ?? [])
        case .interruptionEnd(let shouldResume, let source):
            return [("shouldResume", .bool(shouldResume))] + (source.map { [("source", .string($0))] } ?? [])
        case .musicPause, .musicResume, .musicStop, .sessionActivate, .deviceLost, .deviceRestored:
            return []
        case .cue(let play):
            var fields: [(key: String, value: JSONValue)] = [("cue", .string(play.cue))]
            if let id = play.id { fields.append(("id", .string(id))) }
            if let position = play.position { fields.append(("position", JSONValue(position))) }
            return fields + [("gain", JSONValue(play.gain))]
        case .parameter(let name, let value, let durationSeconds):
            return [("name", .string(name)), ("value", JSONValue(value)), ("duration", .number(durationSeconds))]
        case .snapshotStart(let name, let fadeSeconds), .snapshotStop(let name, let fadeSeconds):
            return [("name", .string(name)), ("fade", .number(fadeSeconds))]
        case .musicPlayTrack(let play):
            var fields: [(key: String, value: JSONValue)] = [("track", .string(play.track)), ("gain", JSONValue(play.gain)),
                                                             ("fadeIn", .number(play.fadeInSeconds))]
            if !play.gains.isEmpty { fields.append(("gains", .object(play.gains.map { ($0.stem, JSONValue($0.gain)) }))) }
            if let loudness = play.loudnessLUFS { fields.append(("loudness", .number(loudness))) }
            return fields
        case .musicStem(let stem, let gain, let durationSeconds):
            return [("stem", .string(stem)), ("gain", JSONValue(gain)), ("duration", .number(durationSeconds))]
        case .musicTransition(let track, let quantize, let entry, let fadeSeconds):
            return [("track", .string(track)), ("quantize", .string(quantize.rawValue)), ("entry", .string(entry.rawValue)),
                    ("fade", .number(fadeSeconds))]
        case .musicStinger(let sound, let quantize, let gain):
            return [("sound", .string(sound)), ("quantize", .string(quantize.rawValue)), ("gain", JSONValue(gain))]
        }
    }

    /// `loopStart` and `loopEnd` as the scene gave them; nothing when it gave neither, so a
    /// version-1 scene logs as before.
    private static func logFields(of loopPoints: SceneLoopPoints?) -> [(key: String, value: JSONValue)] {
        var fields: [(key: String, value: JSONValue)] = []
        if let start = loopPoints?.startSeconds { fields.append(("loopStart", .number(start))) }
        if let end = loopPoints?.endSeconds { fields.append(("loopEnd", .number(end))) }
        return fields
    }
}
