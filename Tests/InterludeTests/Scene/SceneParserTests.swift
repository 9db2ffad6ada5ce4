import Foundation
import Testing
@testable import Interlude
@testable import InterludeScene

/// A folder with a scene file and small dummy sound files (the parser only checks that they exist).
private struct SceneFolder: ~Copyable {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("interlude-scene-\(UUID().uuidString)").path
        for file in ["sfx/beep.wav", "music/theme.ogg", "music/other.ogg"] {
            try write("RIFF", to: file)
        }
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    func write(_ text: String, to file: String) throws {
        let url = URL(fileURLWithPath: path).appendingPathComponent(file)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func parse(_ json: String) throws -> Scene {
        try write(json, to: "scene.json")
        return try SceneParser.parse(fileAt: path + "/scene.json")
    }
}

/// A scene with the example's sounds, an optional extra top-level text, and these events.
private func scene(_ events: String, extra: String = "") -> String {
    """
    { "duration": 8, \(extra) "sounds": { "beep": "sfx/beep.wav", "theme": "music/theme.ogg" }, "events": [\(events)] }
    """
}

/// Event 0 of every bad event case: a voice that later events may name.
private let playA = #"{ "at": 0, "do": "play", "sound": "beep", "id": "a" }"#

/// The error thrown for `json`, which must be one.
private func error(parsing json: String, in folder: borrowing SceneFolder) throws -> InterludeError {
    do {
        _ = try folder.parse(json)
    } catch let error as InterludeError {
        return error
    }
    Issue.record("parsed without an error")
    return InterludeError(.badScene, "")
}

@Suite("SceneParser")
struct SceneParserTests {
    @Test("the example scene of docs/scenes.md parses to the right model")
    func exampleScene() throws {
        let folder = try SceneFolder()
        let parsed = try folder.parse("""
        {
          "sampleRate": 48000,
          "channels": 2,
          "duration": 8.0,
          "policy": "alwaysResume",
          "hrtf": false,
          "distanceModel": "inverseClamped",
          "listener": { "position": [0, 0, 0], "forward": [0, 0, -1], "up": [0, 1, 0], "gain": 1.0 },
          "sounds": { "beep": "sfx/beep.wav", "theme": "music/theme.ogg" },
          "events": [
            { "at": 0.0, "do": "music.play", "sound": "theme" },
            { "at": 0.5, "do": "play", "id": "left", "sound": "beep", "position": [-4, 0, 0], "loop": true },
            { "at": 2.0, "do": "interruption.begin", "reason": "call" },
            { "at": 3.0, "do": "interruption.end", "shouldResume": false }
          ]
        }
        """)
        #expect(parsed.sampleRate == 48000)
        #expect(parsed.channelCount == 2)
        #expect(parsed.durationSeconds == 8)
        #expect(parsed.frameCount == 384_000)
        #expect(parsed.policy == .alwaysResume)
        #expect(parsed.hrtf == false)
        #expect(parsed.distanceModel == .inverseClamped)
        #expect(parsed.listener == ListenerChange(position: .zero, forward: Vector3(0, 0, -1), up: Vector3(0, 1, 0), gain: 1))
        #expect(parsed.sounds == ["beep": folder.path + "/sfx/beep.wav", "theme": folder.path + "/music/theme.ogg"])
        #expect(parsed.events == [
            SceneEvent(index: 0, atSeconds: 0, frame: 0, action: .musicPlay(sound: "theme", loop: true, gain: 1, fadeInSeconds: 0)),
            SceneEvent(index: 1, atSeconds: 0.5, frame: 24000, action: .play(SceneVoicePlay(
                sound: "beep", id: "left", position: Vector3(-4, 0, 0), gain: 1, pitch: 1, loop: true, group: "sfx", priority: 0
            ))),
            SceneEvent(index: 2, atSeconds: 2, frame: 96000, action: .interruptionBegin(reason: "call")),
            SceneEvent(index: 3, atSeconds: 3, frame: 144_000, action: .interruptionEnd(shouldResume: false)),
        ])
    }

    @Test("optional top-level keys take their defaults")
    func defaults() throws {
        let folder = try SceneFolder()
        let parsed = try folder.parse(#"{ "duration": 1, "sounds": {}, "events": [] }"#)
        #expect(parsed.sampleRate == 48000)
        #expect(parsed.channelCount == 2)
        #expect(parsed.policy == .alwaysResume)
        #expect(parsed.hrtf == false)
        #expect(parsed.distanceModel == .inverseClamped)
        #expect(parsed.listener == nil)
        #expect(parsed.sounds.isEmpty)
        #expect(parsed.events.isEmpty)
    }

    @Test("events are sorted by time, and events at the same time keep file order")
    func stableOrder() throws {
        let folder = try SceneFolder()
        let parsed = try folder.parse(scene("""
            { "at": 2, "do": "music.stop" },
            { "at": 1, "do": "play", "sound": "beep", "id": "a" },
            { "at": 2, "do": "stop", "id": "a" },
            { "at": 0, "do": "music.play", "sound": "theme" },
            { "at": 1, "do": "pause", "id": "a" },
            { "at": 2, "do": "music.pause" }
            """))
        #expect(parsed.events.map(\.index) == [3, 1, 4, 0, 2, 5])
    }

    @Test("frames are round(seconds x sampleRate)")
    func frameRounding() throws {
        let folder = try SceneFolder()
        let parsed = try folder.parse(scene("""
            { "at": 0.3333333, "do": "music.pause" },
            { "at": 0.1, "do": "music.pause" },
            { "at": 0.0000105, "do": "music.pause" },
            { "at": 0.0000095, "do": "music.pause" },
            { "at": 8, "do": "music.pause" }
            """, extra: #""sampleRate": 44100,"#))
        #expect(parsed.events.map(\.frame) == [0, 0, 4410, 14700, 352_800])
        #expect(parsed.frameCount == 352_800)
        #expect(parsed.frame(ofSeconds: 1.0 / 3.0) == 14700)

        let at48k = try folder.parse(scene(#"{ "at": 0.3333333, "do": "music.pause" }, { "at": 0.0000105, "do": "music.pause" }"#))
        #expect(at48k.events.map(\.frame) == [1, 16000])
        #expect(at48k.frame(ofSeconds: 0.5) == 24000)
    }

    @Test("a scene's duration rounds to a frame count")
    func frameCountRounds() throws {
        let folder = try SceneFolder()
        let parsed = try folder.parse(#"{ "duration": 0.33333, "sampleRate": 8000, "channels": 1, "sounds": {}, "events": [] }"#)
        #expect(parsed.frameCount == 2667)
        #expect(parsed.channelCount == 1)
    }

    @Test("every action parses, with its defaults, and its name is its do")
    func everyAction() throws {
        let folder = try SceneFolder()
        let events: [(json: String, action: SceneAction)] = [
            (#""do": "play", "sound": "beep", "id": "a""#, .play(SceneVoicePlay(sound: "beep", id: "a"))),
            (#""do": "play", "sound": "beep", "gain": 0.5, "pitch": 2, "loop": true, "group": "ui", "priority": -3"#,
             .play(SceneVoicePlay(sound: "beep", gain: 0.5, pitch: 2, loop: true, group: "ui", priority: -3))),
            (#""do": "stop", "id": "a""#, .stop(id: "a")),
            (#""do": "pause", "id": "a""#, .pause(id: "a")),
            (#""do": "resume", "id": "a""#, .resume(id: "a")),
            (#""do": "set", "id": "a", "gain": 0"#, .set(SceneVoiceChange(id: "a", gain: 0))),
            (#""do": "set", "id": "a", "position": [1, 2, 3], "pitch": 0.5"#,
             .set(SceneVoiceChange(id: "a", position: Vector3(1, 2, 3), pitch: 0.5))),
            (#""do": "listener", "forward": [1, 0, 0]"#, .listener(ListenerChange(forward: Vector3(1, 0, 0)))),
            (#""do": "music.play", "sound": "theme""#, .musicPlay(sound: "theme", loop: true, gain: 1, fadeInSeconds: 0)),
            (#""do": "music.play", "sound": "theme", "loop": false, "gain": 0.25, "fadeIn": 1.5"#,
             .musicPlay(sound: "theme", loop: false, gain: 0.25, fadeInSeconds: 1.5)),
            (#""do": "music.pause""#, .musicPause),
            (#""do": "music.resume""#, .musicResume),
            (#""do": "music.stop""#, .musicStop),
            (#""do": "music.crossfade", "sound": "theme", "duration": 2"#,
             .musicCrossfade(sound: "theme", durationSeconds: 2, loop: true)),
            (#""do": "group", "name": "sfx", "gain": 0.5"#, .group(name: "sfx", gain: 0.5, durationSeconds: 0)),
            (#""do": "group", "name": "music", "gain": 0, "duration": 3"#, .group(name: "music", gain: 0, durationSeconds: 3)),
            (#""do": "systemSound", "sound": "beep""#, .systemSound(sound: "beep")),
            (#""do": "interruption.begin""#, .interruptionBegin(reason: "other")),
            (#""do": "interruption.end""#, .interruptionEnd(shouldResume: false)),
            (#""do": "interruption.end", "shouldResume": true"#, .interruptionEnd(shouldResume: true)),
            (#""do": "session.activate""#, .sessionActivate),
            (#""do": "device.lost""#, .deviceLost),
            (#""do": "device.restored""#, .deviceRestored),
        ]
        let parsed = try folder.parse(scene(events.map { #"{ "at": 1, \#($0.json) }"# }.joined(separator: ",\n")))
        #expect(parsed.events.map(\.action) == events.map(\.action))
        for (event, source) in zip(parsed.events, events) {
            #expect(source.json.hasPrefix(#""do": "\#(event.action.name)""#))
        }
    }

    @Test("an id may be played again later, and an event may name a voice played earlier at the same time")
    func voiceIDs() throws {
        let folder = try SceneFolder()
        let parsed = try folder.parse(scene("""
            { "at": 1, "do": "play", "sound": "beep", "id": "a" },
            { "at": 1, "do": "stop", "id": "a" },
            { "at": 2, "do": "play", "sound": "beep", "id": "a" },
            { "at": 3, "do": "resume", "id": "a" }
            """))
        #expect(parsed.events.count == 4)
    }

    @Test("sound paths resolve against the scene's folder, or stay absolute")
    func soundPaths() throws {
        let folder = try SceneFolder()
        try folder.write("OggS", to: "other/up.ogg")
        let parsed = try folder.parse("""
            { "duration": 1, "events": [],
              "sounds": { "a": "./sfx/../sfx/beep.wav", "b": "\(folder.path)/music/theme.ogg", "c": "../\(URL(fileURLWithPath: folder.path).lastPathComponent)/other/up.ogg" } }
            """)
        #expect(parsed.sounds == [
            "a": folder.path + "/sfx/beep.wav", "b": folder.path + "/music/theme.ogg", "c": folder.path + "/other/up.ogg",
        ])
    }

    @Test("parse(data:) resolves against the folder it is given and names the file as given")
    func parseData() throws {
        let folder = try SceneFolder()
        let parsed = try SceneParser.parse(
            data: Data(scene("").utf8), sceneFolder: folder.path, fileName: "inline.json"
        )
        #expect(parsed.sounds["beep"] == folder.path + "/sfx/beep.wav")
        #expect(throws: InterludeError(.badScene, #"inline.json: unknown key "x""#)) {
            try SceneParser.parse(data: Data(#"{ "x": 1 }"#.utf8), sceneFolder: folder.path, fileName: "inline.json")
        }
    }

    @Test("log fields carry an action's fields under scene-file keys, as compact JSON")
    func logFields() {
        let play = SceneAction.play(SceneVoicePlay(sound: "beep", id: "a", position: Vector3(-4, 0.1, 0), gain: 0.8))
        #expect(JSONValue.object(play.logFields).jsonText
            == #"{"sound":"beep","id":"a","position":[-4,0.1,0],"gain":0.8,"pitch":1,"loop":false,"group":"sfx","priority":0}"#)
        #expect(JSONValue.object(SceneAction.musicPlay(sound: "t", loop: true, gain: 1, fadeInSeconds: 0.25).logFields).jsonText
            == #"{"sound":"t","loop":true,"gain":1,"fadeIn":0.25}"#)
        #expect(JSONValue.object(SceneAction.interruptionBegin(reason: "say \"hi\"\n\u{1}").logFields).jsonText
            == #"{"reason":"say \"hi\"\n\u0001"}"#)
        #expect(SceneAction.deviceLost.logFields.isEmpty)
    }

    @Test("JSON strings with escapes and non-ASCII text parse")
    func jsonEscapes() throws {
        let folder = try SceneFolder()
        let parsed = try folder.parse(scene(#"{ "at": 1, "do": "interruption.begin", "reason": "\u00e9t\u00E9 \ud83d\ude00 \/ ü" }"#))
        #expect(parsed.events.first?.action == .interruptionBegin(reason: "été 😀 / ü"))
    }

    struct BadCase: CustomTestStringConvertible, Sendable {
        let label: String
        let json: String
        /// The event at fault, if one is.
        let event: Int?
        let fragment: String

        var testDescription: String { label }
    }

    static let badScenes: [BadCase] = [
        BadCase(label: "empty file", json: "", event: nil, fragment: "not valid JSON"),
        BadCase(label: "trailing comma", json: #"{ "duration": 1, }"#, event: nil, fragment: "not valid JSON"),
        BadCase(label: "comment", json: "{ // no\n }", event: nil, fragment: "line 1, column 3"),
        BadCase(label: "text after the value", json: #"{ "duration": 1, "sounds": {}, "events": [] } x"#, event: nil, fragment: "after the value"),
        BadCase(label: "duplicate key", json: #"{ "duration": 1, "duration": 2, "sounds": {}, "events": [] }"#, event: nil, fragment: #"duplicate key "duration""#),
        BadCase(label: "nested too deeply", json: String(repeating: "[", count: 100) + String(repeating: "]", count: 100), event: nil, fragment: "nested more than 64 levels deep"),
        BadCase(label: "lone surrogate", json: #"{ "x\ud800": 1 }"#, event: nil, fragment: "surrogate"),
        BadCase(label: "not an object", json: "[1, 2]", event: nil, fragment: "must be a JSON object, got [1,2]"),
        BadCase(label: "unknown top-level key", json: scene("", extra: #""durations": 8,"#), event: nil, fragment: #"unknown key "durations""#),
        BadCase(label: "unknown key with a newline", json: #"{ "a\nb": 1 }"#, event: nil, fragment: #"unknown key "a\nb""#),
        BadCase(label: "duplicate key with a newline", json: #"{ "a\nb": 1, "a\nb": 2 }"#, event: nil, fragment: #"duplicate key "a\nb""#),
        BadCase(label: "missing duration", json: #"{ "sounds": {}, "events": [] }"#, event: nil, fragment: #"missing "duration""#),
        BadCase(label: "missing sounds", json: #"{ "duration": 1, "events": [] }"#, event: nil, fragment: #"missing "sounds""#),
        BadCase(label: "missing events", json: #"{ "duration": 1, "sounds": {} }"#, event: nil, fragment: #"missing "events""#),
        BadCase(label: "duration a string", json: #"{ "duration": "8", "sounds": {}, "events": [] }"#, event: nil, fragment: #""duration" must be"#),
        BadCase(label: "duration zero", json: #"{ "duration": 0, "sounds": {}, "events": [] }"#, event: nil, fragment: #""duration" must be a number of seconds > 0"#),
        BadCase(label: "duration negative", json: #"{ "duration": -1, "sounds": {}, "events": [] }"#, event: nil, fragment: #""duration" must be"#),
        BadCase(label: "duration not finite", json: #"{ "duration": 1e400, "sounds": {}, "events": [] }"#, event: nil, fragment: "not valid JSON: number too large at line 1, column 15"),
        BadCase(label: "duration over a day", json: #"{ "duration": 86401, "sounds": {}, "events": [] }"#, event: nil, fragment: #""duration" must be"#),
        BadCase(label: "sampleRate fractional", json: scene("", extra: #""sampleRate": 44100.5,"#), event: nil, fragment: #""sampleRate" must be an integer in 8000...192000, got 44100.5"#),
        BadCase(label: "sampleRate too low", json: scene("", extra: #""sampleRate": 7999,"#), event: nil, fragment: #""sampleRate" must be"#),
        BadCase(label: "sampleRate too high", json: scene("", extra: #""sampleRate": 192001,"#), event: nil, fragment: #""sampleRate" must be"#),
        BadCase(label: "sampleRate a string", json: scene("", extra: #""sampleRate": "48000","#), event: nil, fragment: #""sampleRate" must be"#),
        BadCase(label: "three channels", json: scene("", extra: #""channels": 3,"#), event: nil, fragment: #""channels" must be an integer in 1...2"#),
        BadCase(label: "zero channels", json: scene("", extra: #""channels": 0,"#), event: nil, fragment: #""channels" must be"#),
        BadCase(label: "unknown policy", json: scene("", extra: #""policy": "always","#), event: nil, fragment: #""policy" must be one of "alwaysResume", "honorShouldResume""#),
        BadCase(label: "policy a number", json: scene("", extra: #""policy": 1,"#), event: nil, fragment: #""policy" must be one of"#),
        BadCase(label: "unknown distanceModel", json: scene("", extra: #""distanceModel": "inverseclamped","#), event: nil, fragment: #""distanceModel" must be one of "none""#),
        BadCase(label: "hrtf a string", json: scene("", extra: #""hrtf": "yes","#), event: nil, fragment: #""hrtf" must be true or false"#),
        BadCase(label: "hrtf with one channel", json: scene("", extra: #""hrtf": true, "channels": 1,"#), event: nil, fragment: #""hrtf" needs 2 channels"#),
        BadCase(label: "listener not an object", json: scene("", extra: #""listener": [0, 0, 0],"#), event: nil, fragment: "listener: must be a JSON object"),
        BadCase(label: "unknown listener key", json: scene("", extra: #""listener": { "pos": [0, 0, 0] },"#), event: nil, fragment: #"listener: unknown key "pos""#),
        BadCase(label: "empty listener", json: scene("", extra: #""listener": {},"#), event: nil, fragment: "listener: must set at least one"),
        BadCase(label: "listener position of 2", json: scene("", extra: #""listener": { "position": [0, 0] },"#), event: nil, fragment: #""position" must be an array of 3 finite numbers, got [0,0]"#),
        BadCase(label: "listener position of strings", json: scene("", extra: #""listener": { "position": ["0", 0, 0] },"#), event: nil, fragment: #""position" must be an array of 3"#),
        BadCase(label: "listener position too large for Float", json: scene("", extra: #""listener": { "position": [1e39, 0, 0] },"#), event: nil, fragment: #""position" must be an array of 3"#),
        BadCase(label: "zero forward", json: scene("", extra: #""listener": { "forward": [0, 0, 0] },"#), event: nil, fragment: #""forward" must not have zero length"#),
        BadCase(label: "zero up", json: scene("", extra: #""listener": { "up": [0, 0, 0] },"#), event: nil, fragment: #""up" must not have zero length"#),
        BadCase(label: "listener gain negative", json: scene("", extra: #""listener": { "gain": -1 },"#), event: nil, fragment: #""gain" must be a finite number >= 0"#),
        BadCase(label: "sounds not an object", json: #"{ "duration": 1, "sounds": ["a.wav"], "events": [] }"#, event: nil, fragment: #""sounds" must be an object"#),
        BadCase(label: "sound path a number", json: #"{ "duration": 1, "sounds": { "beep": 3 }, "events": [] }"#, event: nil, fragment: #"sound "beep": the path must be a non-empty string, got 3"#),
        BadCase(label: "sound path empty", json: #"{ "duration": 1, "sounds": { "beep": "" }, "events": [] }"#, event: nil, fragment: #"sound "beep": the path must be"#),
        BadCase(label: "events not an array", json: #"{ "duration": 1, "sounds": {}, "events": {} }"#, event: nil, fragment: #""events" must be an array"#),
        BadCase(label: "event not an object", json: scene("\(playA), 5"), event: 1, fragment: "must be a JSON object, got 5"),
        BadCase(label: "event without do", json: scene(#"\#(playA), { "at": 1 }"#), event: 1, fragment: #"missing "do""#),
        BadCase(label: "unknown action", json: scene(#"\#(playA), { "at": 1, "do": "jump" }"#), event: 1, fragment: #"unknown action "jump""#),
        BadCase(label: "do a number", json: scene(#"\#(playA), { "at": 1, "do": 5 }"#), event: 1, fragment: "unknown action 5"),
        BadCase(label: "unknown event key", json: scene(#"\#(playA), { "at": 1, "do": "play", "sound": "beep", "positon": [1, 0, 0] }"#), event: 1, fragment: #"(play): unknown key "positon""#),
        BadCase(label: "key of another action", json: scene(#"\#(playA), { "at": 1, "do": "music.play", "sound": "theme", "id": "m" }"#), event: 1, fragment: #"(music.play): unknown key "id""#),
        BadCase(label: "missing at", json: scene(#"\#(playA), { "do": "music.stop" }"#), event: 1, fragment: #"missing "at""#),
        BadCase(label: "at negative", json: scene(#"\#(playA), { "at": -0.1, "do": "music.stop" }"#), event: 1, fragment: #""at" must be a number of seconds in 0...8, got -0.1"#),
        BadCase(label: "at after the end", json: scene(#"\#(playA), { "at": 8.001, "do": "music.stop" }"#), event: 1, fragment: #""at" must be"#),
        BadCase(label: "at a string", json: scene(#"\#(playA), { "at": "1", "do": "music.stop" }"#), event: 1, fragment: #""at" must be"#),
        BadCase(label: "play without sound", json: scene(#"\#(playA), { "at": 1, "do": "play", "id": "b" }"#), event: 1, fragment: #"missing "sound""#),
        BadCase(label: "play of an unknown sound", json: scene(#"\#(playA), { "at": 1, "do": "play", "sound": "boop" }"#), event: 1, fragment: #"unknown sound "boop""#),
        BadCase(label: "play id a number", json: scene(#"\#(playA), { "at": 1, "do": "play", "sound": "beep", "id": 5 }"#), event: 1, fragment: #""id" must be a non-empty string"#),
        BadCase(label: "play position of 4", json: scene(#"\#(playA), { "at": 1, "do": "play", "sound": "beep", "position": [1, 2, 3, 4] }"#), event: 1, fragment: #""position" must be an array of 3"#),
        BadCase(label: "play gain negative", json: scene(#"\#(playA), { "at": 1, "do": "play", "sound": "beep", "gain": -0.5 }"#), event: 1, fragment: #""gain" must be a finite number >= 0"#),
        BadCase(label: "play pitch zero", json: scene(#"\#(playA), { "at": 1, "do": "play", "sound": "beep", "pitch": 0 }"#), event: 1, fragment: #""pitch" must be a finite number > 0"#),
        BadCase(label: "play pitch negative", json: scene(#"\#(playA), { "at": 1, "do": "play", "sound": "beep", "pitch": -1 }"#), event: 1, fragment: #""pitch" must be"#),
        BadCase(label: "play loop a string", json: scene(#"\#(playA), { "at": 1, "do": "play", "sound": "beep", "loop": "true" }"#), event: 1, fragment: #""loop" must be true or false"#),
        BadCase(label: "play priority fractional", json: scene(#"\#(playA), { "at": 1, "do": "play", "sound": "beep", "priority": 1.5 }"#), event: 1, fragment: #""priority" must be an integer"#),
        BadCase(label: "play group empty", json: scene(#"\#(playA), { "at": 1, "do": "play", "sound": "beep", "group": "" }"#), event: 1, fragment: #""group" must be a non-empty string"#),
        BadCase(label: "stop without id", json: scene(#"\#(playA), { "at": 1, "do": "stop" }"#), event: 1, fragment: #"missing "id""#),
        BadCase(label: "unknown voice with a newline", json: scene(#"\#(playA), { "at": 1, "do": "pause", "id": "b\nc" }"#), event: 1, fragment: #"no voice with id "b\nc""#),
        BadCase(label: "stop of an unknown voice", json: scene(#"\#(playA), { "at": 1, "do": "stop", "id": "b" }"#), event: 1, fragment: #"(stop): no voice with id "b""#),
        BadCase(label: "stop before the play", json: scene(#"\#(playA), { "at": 1, "do": "stop", "id": "b" }, { "at": 2, "do": "play", "sound": "beep", "id": "b" }"#), event: 1, fragment: #"no voice with id "b""#),
        BadCase(label: "stop before the play at the same time", json: scene(#"\#(playA), { "at": 2, "do": "pause", "id": "b" }, { "at": 2, "do": "play", "sound": "beep", "id": "b" }"#), event: 1, fragment: #"(pause): no voice with id "b""#),
        BadCase(label: "stop earlier in time, later in the file", json: scene(#"\#(playA), { "at": 2, "do": "play", "sound": "beep", "id": "b" }, { "at": 1, "do": "resume", "id": "b" }"#), event: 2, fragment: #"(resume): no voice with id "b""#),
        BadCase(label: "set of an unknown voice", json: scene(#"\#(playA), { "at": 1, "do": "set", "id": "b", "gain": 1 }"#), event: 1, fragment: #"(set): no voice with id "b""#),
        BadCase(label: "set of nothing", json: scene(#"\#(playA), { "at": 1, "do": "set", "id": "a" }"#), event: 1, fragment: "must set at least one of"),
        BadCase(label: "set gain negative", json: scene(#"\#(playA), { "at": 1, "do": "set", "id": "a", "gain": -1 }"#), event: 1, fragment: #""gain" must be"#),
        BadCase(label: "listener event of nothing", json: scene(#"\#(playA), { "at": 1, "do": "listener" }"#), event: 1, fragment: "(listener): must set at least one of"),
        BadCase(label: "listener event zero forward", json: scene(#"\#(playA), { "at": 1, "do": "listener", "forward": [0, 0, 0] }"#), event: 1, fragment: #""forward" must not have zero length"#),
        BadCase(label: "listener event unknown key", json: scene(#"\#(playA), { "at": 1, "do": "listener", "at2": 1 }"#), event: 1, fragment: #"unknown key "at2""#),
        BadCase(label: "music.play without sound", json: scene(#"\#(playA), { "at": 1, "do": "music.play" }"#), event: 1, fragment: #"missing "sound""#),
        BadCase(label: "music.play of an unknown sound", json: scene(#"\#(playA), { "at": 1, "do": "music.play", "sound": "boop" }"#), event: 1, fragment: #"unknown sound "boop""#),
        BadCase(label: "music.play fadeIn negative", json: scene(#"\#(playA), { "at": 1, "do": "music.play", "sound": "theme", "fadeIn": -1 }"#), event: 1, fragment: #""fadeIn" must be a number of seconds in 0...86400"#),
        BadCase(label: "music.pause with a field", json: scene(#"\#(playA), { "at": 1, "do": "music.pause", "sound": "theme" }"#), event: 1, fragment: #"unknown key "sound""#),
        BadCase(label: "music.crossfade without duration", json: scene(#"\#(playA), { "at": 1, "do": "music.crossfade", "sound": "theme" }"#), event: 1, fragment: #"missing "duration""#),
        BadCase(label: "music.crossfade without sound", json: scene(#"\#(playA), { "at": 1, "do": "music.crossfade", "duration": 1 }"#), event: 1, fragment: #"missing "sound""#),
        BadCase(label: "music.crossfade duration negative", json: scene(#"\#(playA), { "at": 1, "do": "music.crossfade", "sound": "theme", "duration": -2 }"#), event: 1, fragment: #""duration" must be"#),
        BadCase(label: "group without name", json: scene(#"\#(playA), { "at": 1, "do": "group", "gain": 1 }"#), event: 1, fragment: #"missing "name""#),
        BadCase(label: "group without gain", json: scene(#"\#(playA), { "at": 1, "do": "group", "name": "sfx" }"#), event: 1, fragment: #"missing "gain""#),
        BadCase(label: "group gain negative", json: scene(#"\#(playA), { "at": 1, "do": "group", "name": "sfx", "gain": -1 }"#), event: 1, fragment: #""gain" must be"#),
        BadCase(label: "group duration a string", json: scene(#"\#(playA), { "at": 1, "do": "group", "name": "sfx", "gain": 1, "duration": "1" }"#), event: 1, fragment: #""duration" must be"#),
        BadCase(label: "systemSound without sound", json: scene(#"\#(playA), { "at": 1, "do": "systemSound" }"#), event: 1, fragment: #"missing "sound""#),
        BadCase(label: "systemSound of an unknown sound", json: scene(#"\#(playA), { "at": 1, "do": "systemSound", "sound": "ding" }"#), event: 1, fragment: #"unknown sound "ding""#),
        BadCase(label: "reason a number", json: scene(#"\#(playA), { "at": 1, "do": "interruption.begin", "reason": 5 }"#), event: 1, fragment: #""reason" must be a string"#),
        BadCase(label: "shouldResume a string", json: scene(#"\#(playA), { "at": 1, "do": "interruption.end", "shouldResume": "yes" }"#), event: 1, fragment: #""shouldResume" must be true or false"#),
        BadCase(label: "session.activate with a field", json: scene(#"\#(playA), { "at": 1, "do": "session.activate", "reason": "x" }"#), event: 1, fragment: #"unknown key "reason""#),
        BadCase(label: "device.lost with a field", json: scene(#"\#(playA), { "at": 1, "do": "device.lost", "id": "a" }"#), event: 1, fragment: #"unknown key "id""#),
        BadCase(label: "device.restored with a field", json: scene(#"\#(playA), { "at": 1, "do": "device.restored", "x": 1 }"#), event: 1, fragment: #"unknown key "x""#),
    ]

    @Test("a bad scene is a one-line badScene error naming the file, the event at fault and the problem", arguments: badScenes)
    func badScene(_ bad: BadCase) throws {
        let thrown = try error(parsing: bad.json, in: SceneFolder())
        #expect(thrown.code == .badScene)
        #expect(thrown.message.hasPrefix("/"))
        #expect(thrown.message.contains("/scene.json: "))
        #expect(!thrown.message.contains("\n"))
        #expect(thrown.message.contains(bad.fragment), "\(thrown.message)")
        if let event = bad.event {
            #expect(thrown.message.contains("scene.json: event \(event) (") || thrown.message.contains("scene.json: event \(event): "),
                    "\(thrown.message)")
        } else {
            #expect(!thrown.message.contains(": event "), "\(thrown.message)")
        }
    }

    @Test("text that is not UTF-8 is not JSON")
    func notUTF8() throws {
        let folder = try SceneFolder()
        #expect(throws: InterludeError(.badScene, "bytes.json: not valid JSON: the text is not valid UTF-8 at line 1, column 1")) {
            try SceneParser.parse(data: Data([0x7B, 0x22, 0xFF, 0x22, 0x7D]), sceneFolder: folder.path, fileName: "bytes.json")
        }
    }

    @Test("a sound file that does not exist is fileNotFound, naming the scene, the sound and the path")
    func missingSound() throws {
        let folder = try SceneFolder()
        let json = #"{ "duration": 1, "sounds": { "beep": "sfx/beep.wav", "gone": "sfx/gone.wav" }, "events": [] }"#
        #expect(try error(parsing: json, in: folder)
            == InterludeError(.fileNotFound, "\(folder.path)/scene.json: sound \"gone\": no such file: \(folder.path)/sfx/gone.wav"))
    }

    @Test("a bad scene is reported before a missing sound file", arguments: [
        (#""policy": "x", "events": []"#, #"scene.json: "policy" must be"#),
        (#""distanceModel": "x", "events": []"#, #"scene.json: "distanceModel" must be"#),
        (#""listener": {}, "events": []"#, "scene.json: listener: must set"),
        (#""events": [{ "at": 2, "do": "music.stop" }]"#, #"scene.json: event 0 (music.stop): "at" must be"#),
        (#""events": [{ "at": 0, "do": "stop", "id": "x" }]"#, "scene.json: event 0 (stop): no voice"),
    ])
    func badSceneBeforeMissingFile(rest: String, fragment: String) throws {
        let thrown = try error(parsing: #"{ "duration": 1, "sounds": { "gone": "gone.wav" }, \#(rest) }"#, in: SceneFolder())
        #expect(thrown.code == .badScene)
        #expect(thrown.message.contains(fragment), "\(thrown.message)")
    }

    @Test("a sound that is a folder is unreadableFile")
    func soundIsFolder() throws {
        let thrown = try error(parsing: #"{ "duration": 1, "sounds": { "sfx": "sfx" }, "events": [] }"#, in: SceneFolder())
        #expect(thrown.code == .unreadableFile)
        #expect(thrown.message.contains(#"scene.json: sound "sfx": is a folder"#))
    }

    @Test("a scene file that does not exist is fileNotFound")
    func missingSceneFile() throws {
        let folder = try SceneFolder()
        let path = folder.path + "/nothing.json"
        #expect(throws: InterludeError(.fileNotFound, "no such file: \(path)")) {
            try SceneParser.parse(fileAt: path)
        }
    }
}

/// The keys the Swift API names otherwise (`fadeSeconds`, `isLooping`, `gainRange`, ...) are read
/// under either name: the scene contract's keys keep working.
@Suite("SceneParser: Swift names")
struct SceneSwiftNameTests {
    static func designScene(_ keys: [String: String]) -> String {
        func key(_ name: String) -> String { keys[name] ?? name }
        return """
        { "duration": 8,
          "sounds": { "beep": "sfx/beep.wav", "theme": "music/theme.ogg", "other": "music/other.ogg" },
          "parameters": { "speed": { "min": 0, "max": 10 } },
          "snapshots": { "quiet": { "groups": { "sfx": { "gain": 0.5, "\(key("lowpass"))": 0.4 } } } },
          "cues": { "step": { "variants": ["beep"], "\(key("cue gain"))": [0.5, 1], "\(key("pitch"))": [0.9, 1.1],
                              "\(key("cue loudness"))": -20, "\(key("cue loop"))": false, "\(key("cooldown"))": 0.1 } },
          "events": [
            { "at": 0, "do": "play", "sound": "beep", "id": "a", "\(key("loop"))": true, "\(key("lowPass"))": 0.5 },
            { "at": 0, "do": "music.play", "sound": "theme", "\(key("loop"))": false, "\(key("fadeIn"))": 1, "\(key("loudness"))": -16 },
            { "at": 1, "do": "music.crossfade", "sound": "other", "\(key("duration"))": 2, "\(key("loop"))": true },
            { "at": 2, "do": "group", "name": "sfx", "gain": 0.5, "\(key("duration"))": 0.5 },
            { "at": 2, "do": "parameter", "name": "speed", "value": 5, "\(key("duration"))": 1 },
            { "at": 3, "do": "snapshot.start", "name": "quiet", "\(key("fade"))": 0.25 },
            { "at": 4, "do": "snapshot.stop", "name": "quiet", "\(key("fade"))": 0.25 }
          ] }
        """
    }

    static let swiftNames = [
        "lowpass": "lowPassGainHF", "cue gain": "gainRange", "pitch": "pitchRange", "cue loudness": "loudnessLUFS",
        "cue loop": "isLooping", "cooldown": "cooldownSeconds", "loop": "isLooping", "lowPass": "lowPassGainHF",
        "fadeIn": "fadeSeconds", "loudness": "loudnessLUFS", "duration": "fadeSeconds", "fade": "fadeSeconds",
    ]

    static let olderNames = ["cue gain": "gain", "cue loudness": "loudness", "cue loop": "loop"]

    @Test("a scene written with the Swift names parses to the scene written with the older keys")
    func swiftNamesAreTheSameScene() throws {
        let folder = try SceneFolder()
        let older = try folder.parse(Self.designScene(Self.olderNames))
        let swift = try folder.parse(Self.designScene(Self.swiftNames))
        #expect(swift == older)
    }

    @Test("a field given under both names is refused, and a bad value names the key as written")
    func bothNamesAreRefused() throws {
        let folder = try SceneFolder()
        let both = try error(parsing: scene(#"{ "at": 0, "do": "snapshot.start", "name": "q", "fade": 1, "fadeSeconds": 1 }"#), in: folder)
        #expect(both.message.contains(#""fade" and "fadeSeconds" are the same field"#), "\(both.message)")
        let bad = try error(parsing: scene(#"{ "at": 0, "do": "music.play", "sound": "theme", "fadeSeconds": "slow" }"#), in: folder)
        #expect(bad.message.contains(#""fadeSeconds" must be"#), "\(bad.message)")
    }
}
