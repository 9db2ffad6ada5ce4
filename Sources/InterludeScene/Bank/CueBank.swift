import Foundation
@_spi(Tools) import Interlude

/// A cue bank: a sound designer's cues, game parameters, mix snapshots and tracks of stems in
/// one JSON file, with the scene format's keys (`sounds`, `cues`, `parameters`, `snapshots`,
/// `tracks`; docs/scenes.md),
/// loaded into an engine with one call (``SoundEngine/loadBank(path:)``).
///
/// A plain value: any thread may use it.
public struct CueBank: Sendable, Equatable {
    /// Sound name -> absolute path (relative paths are resolved against the bank file's folder).
    public let sounds: [String: String]
    /// Cues by name.
    public let cues: [String: SceneCue]
    /// Game parameters by name.
    public let parameters: [String: SceneParameter]
    /// Mix snapshots by name.
    public let snapshots: [String: SceneMixSnapshot]
    /// Tracks of stems by name (version 4); a scene's are played by its events, not defined.
    public let tracks: [String: SceneTrack]

    /// The sound-design part of a scene, as a bank.
    init(scene: Scene) {
        sounds = scene.sounds
        cues = scene.cues
        parameters = scene.parameters
        snapshots = scene.snapshots
        tracks = [:]
    }

    private init(sounds: [String: String], cues: [String: SceneCue], parameters: [String: SceneParameter],
                 snapshots: [String: SceneMixSnapshot], tracks: [String: SceneTrack]) {
        self.sounds = sounds
        self.cues = cues
        self.parameters = parameters
        self.snapshots = snapshots
        self.tracks = tracks
    }

    private static let topLevelKeys: Set = ["sounds", "cues", "parameters", "snapshots", "tracks"]

    /// Reads and validates the bank file at `path` as a scene's keys are: errors are
    /// `.badScene` naming the file and the cue, parameter or snapshot, `.fileNotFound` or
    /// `.unreadableFile` for the file or a sound.
    public static func parse(fileAt path: String) throws -> CueBank {
        let (data, folder) = try SceneParser.readFile(atPath: path)
        return try parse(data: data, folder: folder, fileName: path)
    }

    /// Validates a bank file's contents; relative sound paths are resolved against `folder`,
    /// and messages name the file as `fileName`.
    public static func parse(data: Data, folder: String, fileName: String) throws -> CueBank {
        let root = try SceneParser.json(data, fileName: fileName)
        let top = try SceneFieldReader(root, context: fileName, allowedKeys: topLevelKeys)
        let soundPaths = try top.value("sounds").map { try SceneParser.sounds($0, folder: folder, top: top) } ?? []
        let sounds = Dictionary(uniqueKeysWithValues: soundPaths.map { ($0.name, $0.path) })
        let parameters = try SceneParser.parameters(top, fileName: fileName)
        let cues = try SceneParser.cues(top, fileName: fileName, sounds: sounds, parameters: parameters)
        let snapshots = try SceneParser.snapshots(top, fileName: fileName)
        let tracks = try SceneParser.tracks(top, fileName: fileName, sounds: sounds)
        for sound in soundPaths {
            try SceneParser.checkFile(atPath: sound.path, prefix: "\(fileName): sound \(SceneFieldReader.quoted(sound.name)): ")
        }
        return CueBank(sounds: sounds, cues: cues, parameters: parameters, snapshots: snapshots, tracks: tracks)
    }

    /// What ``apply(to:sounds:fileName:)`` made: the cues and snapshots by name.
    struct Made {
        var cues: [String: CueID] = [:]
        var snapshots: [String: MixSnapshotID] = [:]
    }

    /// Makes the bank's parameters, cues and snapshots on `engine` (each in name order, with
    /// the groups they name), its variants taken from `sounds`. Errors name `fileName` and the
    /// cue, parameter or snapshot.
    func apply(to engine: SoundEngine, sounds: [String: Sound], fileName: String) throws -> Made {
        var made = Made()
        for (name, parameter) in parameters.sorted(by: { $0.key < $1.key }) {
            try Self.naming(fileName, "parameter", name) {
                try engine.makeParameter(named: name, range: parameter.min...parameter.max, defaultValue: parameter.defaultValue)
            }
        }
        for (name, cue) in cues.sorted(by: { $0.key < $1.key }) {
            try Self.naming(fileName, "cue", name) {
                made.cues[name] = try engine.makeCue(named: name, cue.definition(sounds: sounds, group: try engine.makeGroup(named: cue.group)))
            }
        }
        for (name, snapshot) in snapshots.sorted(by: { $0.key < $1.key }) {
            try Self.naming(fileName, "snapshot", name) {
                var groups: [GroupID: GroupMix] = [:]
                for (group, mix) in snapshot.groups { groups[try engine.makeGroup(named: group)] = mix }
                made.snapshots[name] = try engine.makeMixSnapshot(named: name, groups: groups)
            }
        }
        return made
    }

    /// Runs `body`, naming the file and the `kind` called `name` in its error.
    private static func naming(_ fileName: String, _ kind: String, _ name: String, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as InterludeError {
            throw InterludeError(error.code, "\(fileName): \(kind) \(SceneFieldReader.quoted(name)): \(error.message)")
        }
    }

    /// The bank's tracks as the engine defines them, each opened and checked (one rate and
    /// length for its stems, its first beat inside them), its loop points in frames of its
    /// first stem. Errors name `fileName`, the track and the stem.
    func musicTracks(fileName: String) throws -> [MusicTrack] {
        try tracks.sorted(by: { $0.key < $1.key }).map { name, track in
            var region: Range<Int>?
            try Self.naming(fileName, "track", name) {
                let first = try DecoderFactory.open(path: sounds[track.stems[0].sound]!)
                region = try track.loopPoints.map {
                    try $0.region(sampleRate: first.format.sampleRate, frameCount: first.frameCount, taggedRegion: first.loopRegion)
                }
            }
            let musicTrack = track.musicTrack(named: name, sounds: sounds, loopRegion: region)
            // Its messages name the file, the track and the stem.
            try musicTrack.validate(in: fileName)
            return musicTrack
        }
    }

    /// The sounds the cues play, by name.
    var variantSounds: Set<String> {
        Set(cues.values.flatMap(\.variants))
    }
}

extension SoundEngine {
    /// Loads a cue bank file (``CueBank``): reads and checks all of it first, then loads the
    /// sounds its cues play (each file once, as ``loadSound(path:)`` does) and opens its tracks'
    /// stems, then makes its parameters, cues and snapshots and defines its tracks
    /// (``SoundEngine/defineTrack(_:)``). A cue, parameter or snapshot of a name the engine has
    /// is replaced: voices already playing go on, and the next play follows the bank. Nothing
    /// is made when the file, or a sound it names, is wrong: the error names the file and the
    /// cue, parameter, snapshot or sound. Returns the bank as read. Any thread.
    @discardableResult
    public func loadBank(path: String) throws -> CueBank {
        let bank = try CueBank.parse(fileAt: path)
        let tracks = try bank.musicTracks(fileName: path)
        var sounds: [String: Sound] = [:]
        for name in bank.variantSounds.sorted() {
            do {
                sounds[name] = try loadSound(path: bank.sounds[name]!)
            } catch let error as InterludeError {
                throw InterludeError(error.code, "\(path): sound \(SceneFieldReader.quoted(name)): \(error.message)")
            }
        }
        _ = try bank.apply(to: self, sounds: sounds, fileName: path)
        for track in tracks { try defineTrack(track) }
        return bank
    }
}
