import Foundation
import Interlude

/// Reads scene files (docs/scenes.md) strictly: anything the contract does not allow is an
/// error, never a silent skip.
///
/// Errors are `InterludeError`s whose message is one line that starts with the scene file's
/// name and, where an event is at fault, `event N` (its 0-based index in the file's `events`):
/// `.badScene` for anything wrong in the scene, `.fileNotFound` for a sound (or the scene) that
/// does not exist, `.unreadableFile` for one that is a folder or cannot be read.
///
/// Stateless: any thread may call it.
public enum SceneParser {
    private static let topLevelKeys: Set = [
        "sampleRate", "channels", "duration", "policy", "hrtf", "distanceModel", "listener", "sounds", "events", "reverbZones",
        "resampler", "seed", "cues", "parameters", "snapshots",
        "limiter", "tracks",
    ]
    private static let listenerKeys: Set = ["position", "forward", "up", "gain"]

    /// An action's own keys (besides `at` and `do`) and how to read it from an event.
    private struct ActionFormat: Sendable {
        let keys: Set<String>
        /// Older keys the Swift API names otherwise, read under either name.
        var swiftNames: [String: String] = [:]
        let read: @Sendable (SceneFieldReader) throws -> SceneAction
    }

    /// Every action by its `do` string.
    private static let actionFormats: [String: ActionFormat] = [
        "play": ActionFormat(keys: ["sound", "id", "position", "gain", "pitch", "loop", "group", "priority", "reverbZone", "lowPass"],
                             swiftNames: ["loop": "isLooping", "lowPass": "lowPassGainHF"]) { event in
            .play(SceneVoicePlay(
                sound: try event.require("sound", event.name), id: try event.name("id"),
                position: try event.vector("position"), gain: try event.gain("gain") ?? 1,
                pitch: try event.pitch("pitch") ?? 1, loop: try event.bool("loop") ?? false,
                group: try event.name("group") ?? "sfx", priority: try event.integer("priority") ?? 0,
                reverbZone: try event.name("reverbZone"),
                lowPassGainHF: Float(try event.number("lowPass", "a number from 0 to 1") { (0...1).contains($0) } ?? 1)
            ))
        },
        "stop": ActionFormat(keys: ["id"]) { .stop(id: try $0.require("id", $0.name)) },
        "pause": ActionFormat(keys: ["id"]) { .pause(id: try $0.require("id", $0.name)) },
        "resume": ActionFormat(keys: ["id"]) { .resume(id: try $0.require("id", $0.name)) },
        "set": ActionFormat(keys: ["id", "position", "gain", "pitch"]) { event in
            let change = SceneVoiceChange(
                id: try event.require("id", event.name), position: try event.vector("position"),
                gain: try event.gain("gain"), pitch: try event.pitch("pitch")
            )
            guard change.position != nil || change.gain != nil || change.pitch != nil else {
                throw event.error("must set at least one of \"position\", \"gain\", \"pitch\"")
            }
            return .set(change)
        },
        "listener": ActionFormat(keys: listenerKeys) { .listener(try listenerChange($0)) },
        "music.play": ActionFormat(keys: ["sound", "track", "loop", "gain", "gains", "fadeIn", "loopStart", "loopEnd", "loudness"],
                                   swiftNames: ["loop": "isLooping", "fadeIn": "fadeSeconds", "loudness": "loudnessLUFS"]) {
            try musicPlay($0)
        },
        "music.stem": ActionFormat(keys: ["stem", "gain", "duration"], swiftNames: ["duration": "fadeSeconds"]) { event in
            .musicStem(stem: try event.require("stem", event.name), gain: try event.require("gain", event.gain),
                       durationSeconds: try event.seconds("duration") ?? 0)
        },
        "music.transition": ActionFormat(keys: ["track", "quantize", "entry", "fade"], swiftNames: ["fade": "fadeSeconds"]) { event in
            .musicTransition(track: try event.require("track", event.name), quantize: try event.choice("quantize", MusicQuantize.self) ?? .bar,
                             entry: try event.choice("entry", MusicEntry.self) ?? .start, fadeSeconds: try event.seconds("fade") ?? 0)
        },
        "music.stinger": ActionFormat(keys: ["sound", "quantize", "gain"]) { event in
            .musicStinger(sound: try event.require("sound", event.name), quantize: try event.choice("quantize", MusicQuantize.self) ?? .beat,
                          gain: try event.gain("gain") ?? 1)
        },
        "music.pause": ActionFormat(keys: []) { _ in .musicPause },
        "music.resume": ActionFormat(keys: []) { _ in .musicResume },
        "music.stop": ActionFormat(keys: []) { _ in .musicStop },
        "music.crossfade": ActionFormat(keys: ["sound", "duration", "loop", "loopStart", "loopEnd", "loudness"],
                                        swiftNames: ["loop": "isLooping", "duration": "fadeSeconds", "loudness": "loudnessLUFS"]) { event in
            .musicCrossfade(
                sound: try event.require("sound", event.name), durationSeconds: try event.require("duration", event.seconds),
                loop: try event.bool("loop") ?? true, loopPoints: try loopPoints(event), loudnessLUFS: try event.loudness("loudness")
            )
        },
        "group": ActionFormat(keys: ["name", "gain", "duration"], swiftNames: ["duration": "fadeSeconds"]) { event in
            .group(
                name: try event.require("name", event.name), gain: try event.require("gain", event.gain),
                durationSeconds: try event.seconds("duration") ?? 0
            )
        },
        "systemSound": ActionFormat(keys: ["sound"]) { .systemSound(sound: try $0.require("sound", $0.name)) },
        "interruption.begin": ActionFormat(keys: ["reason", "source"]) { event in
            let reason = try event.string("reason") ?? InterruptionReason.other.rawValue
            // The engine raises this reason itself when the device goes; a scene asking for it
            // would render silence to the end with no device.restored able to end it.
            guard reason != InterruptionReason.deviceLost.rawValue else {
                throw event.error("\"reason\" must not be \"deviceLost\": device loss is the \"device.lost\" event")
            }
            return .interruptionBegin(reason: reason, source: try event.name("source"))
        },
        "interruption.end": ActionFormat(keys: ["shouldResume", "source"]) {
            .interruptionEnd(shouldResume: try $0.bool("shouldResume") ?? false, source: try $0.name("source"))
        },
        "session.activate": ActionFormat(keys: []) { _ in .sessionActivate },
        "device.lost": ActionFormat(keys: []) { _ in .deviceLost },
        "device.restored": ActionFormat(keys: []) { _ in .deviceRestored },
        "cue": ActionFormat(keys: ["cue", "id", "position", "gain"]) { event in
            .cue(SceneCuePlay(cue: try event.require("cue", event.name), id: try event.name("id"),
                              position: try event.vector("position"), gain: try event.gain("gain") ?? 1))
        },
        "parameter": ActionFormat(keys: ["name", "value", "duration"], swiftNames: ["duration": "fadeSeconds"]) { event in
            .parameter(name: try event.require("name", event.name),
                       value: Float(try event.require("value") { try event.number($0, "a finite number") { Float($0).isFinite } }),
                       durationSeconds: try event.seconds("duration") ?? 0)
        },
        "snapshot.start": ActionFormat(keys: ["name", "fade"], swiftNames: ["fade": "fadeSeconds"]) { event in
            .snapshotStart(name: try event.require("name", event.name), fadeSeconds: try event.seconds("fade") ?? 0)
        },
        "snapshot.stop": ActionFormat(keys: ["name", "fade"], swiftNames: ["fade": "fadeSeconds"]) { event in
            .snapshotStop(name: try event.require("name", event.name), fadeSeconds: try event.seconds("fade") ?? 0)
        },
    ]

    /// Reads and validates the scene file at `path`. Relative sound paths are resolved against
    /// the file's folder; messages name the file as `path` is written.
    public static func parse(fileAt path: String) throws -> Scene {
        let (data, folder) = try readFile(atPath: path)
        return try parse(data: data, sceneFolder: folder, fileName: path)
    }

    /// The contents of a JSON file of the scene tools (a scene, a cue bank) and its folder, which
    /// relative sound paths are resolved against. Throws naming the file when it is missing or
    /// unreadable.
    static func readFile(atPath path: String) throws -> (data: Data, folder: String) {
        try checkFile(atPath: path, prefix: "")
        let url = URL(fileURLWithPath: path)
        do {
            return (try Data(contentsOf: url), url.deletingLastPathComponent().path)
        } catch {
            throw InterludeError(.unreadableFile, "\(path): cannot be read")
        }
    }

    /// `data` as JSON; a `.badScene` error naming `fileName` and where the JSON breaks otherwise.
    static func json(_ data: Data, fileName: String) throws -> JSONValue {
        do {
            return try JSONValue(parsing: data)
        } catch {
            throw InterludeError(.badScene, "\(fileName): not valid JSON: \(error.problem) at line \(error.line), column \(error.column)")
        }
    }

    /// Validates a scene file's contents.
    /// - Parameters:
    ///   - sceneFolder: the folder relative sound paths are resolved against.
    ///   - fileName: how messages name the scene file.
    public static func parse(data: Data, sceneFolder: String, fileName: String) throws -> Scene {
        let root = try json(data, fileName: fileName)
        let top = try SceneFieldReader(root, context: fileName, allowedKeys: topLevelKeys)
        let durationSeconds = try top.require("duration") {
            try top.number($0, "a number of seconds > 0 and <= \(JSONValue.number(SceneFieldReader.maximumSeconds).jsonText)") {
                $0 > 0 && $0 <= SceneFieldReader.maximumSeconds
            }
        }
        let sampleRate = try top.integer("sampleRate", in: 8000...192_000) ?? 48000
        let channelCount = try top.integer("channels", in: 1...2) ?? 2
        let policy = try top.choice("policy", ResumePolicy.self) ?? .alwaysResume
        let distanceModel = try top.choice("distanceModel", DistanceModel.self) ?? .inverseClamped
        let hrtf = try top.bool("hrtf") ?? false
        let resampler = try top.choice("resampler", Resampler.self)
        let limiter = try top.bool("limiter") ?? false
        if hrtf && channelCount == 1 {
            throw top.error("\"hrtf\" needs 2 channels, but \"channels\" is 1")
        }
        let listener = try top.value("listener").map {
            try listenerChange(SceneFieldReader($0, context: "\(fileName): listener", allowedKeys: listenerKeys))
        }
        let reverbZones = try top.value("reverbZones").map { try reverbZoneTable($0, top: top) } ?? [:]
        let soundPaths = try sounds(try top.require("sounds", top.value), folder: sceneFolder, top: top)
        let sounds = Dictionary(uniqueKeysWithValues: soundPaths.map { ($0.name, $0.path) })
        let seed = try seed(top)
        let parameters = try parameters(top, fileName: fileName)
        let cues = try cues(top, fileName: fileName, sounds: sounds, parameters: parameters)
        let snapshots = try snapshots(top, fileName: fileName)
        let tracks = try tracks(top, fileName: fileName, sounds: sounds)
        let eventList = try top.require("events", top.value)
        guard case .array(let items) = eventList else {
            throw top.error("\"events\" must be an array, got \(SceneFieldReader.excerpt(of: eventList))")
        }
        let events = try items.enumerated().map { index, item in
            try event(item, index: index, fileName: fileName, durationSeconds: durationSeconds, sampleRate: sampleRate, sounds: sounds)
        }.sorted { ($0.atSeconds, $0.index) < ($1.atSeconds, $1.index) }
        try checkVoiceIDs(events, fileName: fileName)
        try checkDesignEvents(events, fileName: fileName, cues: cues, parameters: parameters, snapshots: snapshots)
        try checkMusicEvents(events, fileName: fileName, tracks: tracks)
        for event in events {
            if case .play(let play) = event.action, let zone = play.reverbZone, reverbZones[zone] == nil {
                throw SceneFieldReader.error("\(fileName): event \(event.index) (play)", "reverbZone \(SceneFieldReader.quoted(zone)) is not in \"reverbZones\"")
            }
        }
        for sound in soundPaths {
            try checkFile(atPath: sound.path, prefix: "\(fileName): sound \(SceneFieldReader.quoted(sound.name)): ")
        }
        var scene = Scene(
            sampleRate: sampleRate, channelCount: channelCount, durationSeconds: durationSeconds,
            policy: policy, hrtf: hrtf, distanceModel: distanceModel, listener: listener, sounds: sounds, events: events,
            reverbZones: reverbZones, resampler: resampler, limiter: limiter
        )
        scene.seed = seed
        scene.cues = cues
        scene.parameters = parameters
        scene.snapshots = snapshots
        scene.tracks = tracks
        return scene
    }

    /// `loopStart` and `loopEnd` (seconds), nil when the event gives neither. Whether they fit
    /// the track is checked once it is opened (``SceneDirector``); their order is checked here.
    static func loopPoints(_ event: SceneFieldReader) throws -> SceneLoopPoints? {
        let points = SceneLoopPoints(startSeconds: try event.seconds("loopStart"), endSeconds: try event.seconds("loopEnd"))
        if let start = points.startSeconds, let end = points.endSeconds, start >= end {
            throw event.error("\"loopStart\" (\(start) s) must be before \"loopEnd\" (\(end) s)")
        }
        return points.startSeconds == nil && points.endSeconds == nil ? nil : points
    }

    /// The `reverbZones` object: zone name -> preset name (generic, room, hall, cave).
    private static func reverbZoneTable(_ value: JSONValue, top: SceneFieldReader) throws -> [String: String] {
        guard case .object(let entries) = value else {
            throw top.error("\"reverbZones\" must be an object of zone name -> preset name, got \(SceneFieldReader.excerpt(of: value))")
        }
        var zones: [String: String] = [:]
        for (name, preset) in entries {
            guard !name.isEmpty, case .string(let presetName) = preset, ReverbPreset.named[presetName] != nil else {
                throw top.error("reverb zone \(SceneFieldReader.quoted(name)): the preset must be one of \(ReverbPreset.named.keys.sorted().joined(separator: ", ")), got \(SceneFieldReader.excerpt(of: preset))")
            }
            zones[name] = presetName
        }
        return zones
    }

    /// The `sounds` object's entries in file order, each path made absolute.
    static func sounds(_ value: JSONValue, folder: String, top: SceneFieldReader) throws -> [(name: String, path: String)] {
        guard case .object(let entries) = value else {
            throw top.error("\"sounds\" must be an object of name -> path, got \(SceneFieldReader.excerpt(of: value))")
        }
        let folderURL = URL(fileURLWithPath: folder, isDirectory: true)
        return try entries.map { name, path in
            guard case .string(let path) = path, !path.isEmpty else {
                throw top.error("sound \(SceneFieldReader.quoted(name)): the path must be a non-empty string, got \(SceneFieldReader.excerpt(of: path))")
            }
            return (name, URL(fileURLWithPath: path, relativeTo: folderURL).standardizedFileURL.path)
        }
    }

    private static func listenerChange(_ fields: SceneFieldReader) throws -> ListenerChange {
        let change = ListenerChange(
            position: try fields.vector("position"), forward: try fields.direction("forward"),
            up: try fields.direction("up"), gain: try fields.gain("gain")
        )
        guard change.position != nil || change.forward != nil || change.up != nil || change.gain != nil else {
            throw fields.error("must set at least one of \"position\", \"forward\", \"up\", \"gain\"")
        }
        return change
    }

    private static func event(
        _ value: JSONValue, index: Int, fileName: String, durationSeconds: Double, sampleRate: Int, sounds: [String: String]
    ) throws -> SceneEvent {
        let context = "\(fileName): event \(index)"
        guard case .object(let members) = value else {
            throw SceneFieldReader.error(context, "must be a JSON object, got \(SceneFieldReader.excerpt(of: value))")
        }
        guard let action = members.first(where: { $0.key == "do" })?.value else {
            throw SceneFieldReader.error(context, "missing \"do\"")
        }
        guard case .string(let name) = action, let format = actionFormats[name] else {
            throw SceneFieldReader.error(context, "unknown action \(SceneFieldReader.excerpt(of: action))")
        }
        let fields = try SceneFieldReader(value, context: "\(context) (\(name))", allowedKeys: format.keys.union(["at", "do"]),
                                          swiftNames: format.swiftNames)
        let atSeconds = try fields.require("at") {
            try fields.number($0, "a number of seconds in 0...\(JSONValue.number(durationSeconds).jsonText)") {
                $0 >= 0 && $0 <= durationSeconds
            }
        }
        let sceneAction = try format.read(fields)
        if let sound = soundName(in: sceneAction), sounds[sound] == nil {
            throw fields.error("unknown sound \(SceneFieldReader.quoted(sound)): not in \"sounds\"")
        }
        return SceneEvent(
            index: index, atSeconds: atSeconds,
            frame: Scene.frame(ofSeconds: atSeconds, sampleRate: sampleRate), action: sceneAction
        )
    }

    /// Every voice an event names must have been started by a `play` (or a `cue`) with that id before it,
    /// in time order.
    private static func checkVoiceIDs(_ events: [SceneEvent], fileName: String) throws {
        var played = Set<String>()
        for event in events {
            if case .play(let play) = event.action, let id = play.id {
                played.insert(id)
            } else if case .cue(let play) = event.action, let id = play.id {
                played.insert(id)
            } else if let id = voiceID(in: event.action), !played.contains(id) {
                throw SceneFieldReader.error(
                    "\(fileName): event \(event.index) (\(event.action.name))", "no voice with id \(SceneFieldReader.quoted(id)) is played before it"
                )
            }
        }
    }

    /// The voice an action acts on, other than by starting it.
    private static func voiceID(in action: SceneAction) -> String? {
        switch action {
        case .stop(let id), .pause(let id), .resume(let id): id
        case .set(let change): change.id
        default: nil
        }
    }

    private static func soundName(in action: SceneAction) -> String? {
        switch action {
        case .play(let play): play.sound
        case .musicPlay(let sound, _, _, _, _, _), .musicCrossfade(let sound, _, _, _, _), .systemSound(let sound),
             .musicStinger(let sound, _, _): sound
        default: nil
        }
    }

    /// Throws unless a regular file exists at `path`; messages start with `prefix`.
    static func checkFile(atPath path: String, prefix: String) throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw InterludeError(.fileNotFound, "\(prefix)no such file: \(path)")
        }
        guard !isFolder.boolValue else {
            throw InterludeError(.unreadableFile, "\(prefix)is a folder, not a file: \(path)")
        }
    }
}
