import Foundation
import Interlude
import Testing

/// `interlude` end to end, as a subprocess: render, info and play. No device is opened in this
/// process, so these suites need not nest in ``EngineSuites``.
@Suite struct RenderCommandTests {
    typealias Run = ProductProcess.Run

    /// Runs `interlude` with `arguments`; kills it after `limitSeconds` (a hang guard).
    static func run(_ arguments: [String], in folder: URL? = nil, environment: [String: String] = [:], limitSeconds: Double = 60) throws -> Run {
        try ProductProcess.run("interlude", arguments, in: folder, environment: environment, limitSeconds: limitSeconds)
    }

    /// A fresh, empty folder.
    static func makeFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("interlude-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static let beep = TestPaths.asset("sfx/beep.wav")

    static func write(_ json: String, to folder: URL, name: String = "scene.json") throws -> URL {
        let url = folder.appendingPathComponent(name)
        try Data(json.utf8).write(to: url)
        return url
    }

    typealias WAV = WAVFileContents

    static let beepAtPlusX = """
    {
      "sampleRate": 48000, "channels": 2, "duration": 1.0,
      "sounds": { "beep": "\(beep)" },
      "events": [ { "at": 0.0, "do": "play", "id": "right", "sound": "beep", "position": [4, 0, 0], "loop": true } ]
    }
    """

    @Test func rendersABeepOnTheRightDeterministically() throws {
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scene = try Self.write(Self.beepAtPlusX, to: folder)
        let first = folder.appendingPathComponent("first.wav"), second = folder.appendingPathComponent("second.wav")
        let run1 = try Self.run(["render", scene.path, "--output", first.path])
        #expect(run1.status == 0, "\(run1.standardError)")
        let run2 = try Self.run(["render", scene.path, "--output", second.path])
        #expect(run2.status == 0, "\(run2.standardError)")

        let data = try Data(contentsOf: first)
        #expect(try Data(contentsOf: second) == data, "two renders of the same scene differ")
        let wav = try WAV(data)
        #expect(wav.formatTag == 1 && wav.bitsPerSample == 16)
        #expect(wav.channelCount == 2 && wav.sampleRate == 48_000)
        #expect(wav.samples.count == 2 * 48_000)
        let left = wav.rms(channel: 0, frames: 4_800..<48_000), right = wav.rms(channel: 1, frames: 4_800..<48_000)
        #expect(right > 0.01, "right RMS \(right)")
        #expect(right >= 4 * left, "right/left \(right / max(left, 1e-12)) (left \(left), right \(right))")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(leftovers == ["first.wav", "scene.json", "second.wav"])
    }

    @Test func floatOutputIsIEEEFloat() throws {
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scene = try Self.write(Self.beepAtPlusX, to: folder)
        let output = folder.appendingPathComponent("out.wav")
        let run = try Self.run(["render", scene.path, "--output", output.path, "--float"])
        #expect(run.status == 0, "\(run.standardError)")
        let wav = try WAV(try Data(contentsOf: output))
        #expect(wav.formatTag == 3, "format tag \(wav.formatTag)")
        #expect(wav.bitsPerSample == 32)
        #expect(wav.samples.count == 2 * 48_000)
        #expect(wav.samples.allSatisfy { $0.isFinite && abs($0) <= 1 })
        #expect(wav.rms(channel: 1, frames: 4_800..<48_000) >= 4 * wav.rms(channel: 0, frames: 4_800..<48_000))
    }

    @Test func aOneShotEndsInExactSilence() throws {
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scene = try Self.write("""
        { "duration": 1.0, "sounds": { "beep": "\(Self.beep)" },
          "events": [ { "at": 0.1, "do": "play", "sound": "beep" } ] }
        """, to: folder)
        let output = folder.appendingPathComponent("out.wav")
        let run = try Self.run(["render", scene.path, "--output", output.path, "--float"])
        #expect(run.status == 0, "\(run.standardError)")
        let wav = try WAV(try Data(contentsOf: output))
        // beep.wav: 0.25 s from 0.1 s; silent before and exactly 0 after 0.35 s (plus a ramp).
        #expect(wav.rms(channel: 0, frames: 0..<4_800) == 0)
        #expect(wav.rms(channel: 0, frames: 5_000..<16_000) > 0.01)
        #expect(wav.rms(channel: 0, frames: 17_000..<48_000) == 0)
        #expect(wav.rms(channel: 1, frames: 17_000..<48_000) == 0)
    }

    struct BadScene: CustomTestStringConvertible, Sendable {
        var name: String
        var json: String
        /// The 0-based index of the event at fault, if one is.
        var event: Int?
        var testDescription: String { name }
    }

    static let badScenes: [BadScene] = [
        BadScene(name: "unknown key", json: #"{"duration": 1, "colour": "red", "sounds": {"beep": "beep.wav"}, "events": []}"#, event: nil),
        BadScene(name: "unknown key in an event", json: #"{"duration": 1, "sounds": {"beep": "beep.wav"}, "events": [{"at": 0, "do": "play", "sound": "beep", "volume": 2}]}"#, event: 0),
        BadScene(name: "unknown action", json: #"{"duration": 1, "sounds": {"beep": "beep.wav"}, "events": [{"at": 0, "do": "play", "sound": "beep"}, {"at": 0.5, "do": "dance"}]}"#, event: 1),
        BadScene(name: "missing duration", json: #"{"sounds": {"beep": "beep.wav"}, "events": []}"#, event: nil),
        BadScene(name: "missing sound field", json: #"{"duration": 1, "sounds": {"beep": "beep.wav"}, "events": [{"at": 0, "do": "play"}]}"#, event: 0),
        BadScene(name: "unknown id", json: #"{"duration": 1, "sounds": {"beep": "beep.wav"}, "events": [{"at": 0, "do": "play", "id": "a", "sound": "beep"}, {"at": 0.2, "do": "stop", "id": "nobody"}]}"#, event: 1),
        BadScene(name: "unknown sound name", json: #"{"duration": 1, "sounds": {"beep": "beep.wav"}, "events": [{"at": 0, "do": "play", "sound": "boop"}]}"#, event: 0),
        BadScene(name: "at after duration", json: #"{"duration": 1, "sounds": {"beep": "beep.wav"}, "events": [{"at": 1.5, "do": "play", "sound": "beep"}]}"#, event: 0),
        BadScene(name: "at before 0", json: #"{"duration": 1, "sounds": {"beep": "beep.wav"}, "events": [{"at": -0.1, "do": "play", "sound": "beep"}]}"#, event: 0),
        BadScene(name: "missing sound file", json: #"{"duration": 1, "sounds": {"beep": "missing.wav"}, "events": [{"at": 0, "do": "play", "sound": "beep"}]}"#, event: nil),
        BadScene(name: "corrupt sound file", json: #"{"duration": 1, "sounds": {"beep": "garbage.wav"}, "events": [{"at": 0, "do": "play", "sound": "beep"}]}"#, event: nil),
        BadScene(name: "music with a corrupt file", json: #"{"duration": 1, "sounds": {"theme": "garbage.wav"}, "events": [{"at": 0, "do": "music.play", "sound": "theme"}]}"#, event: nil),
        BadScene(name: "not JSON", json: #"{"duration": 1, "#, event: nil),
        BadScene(name: "loopEnd past the track", json: #"{"duration": 1, "sounds": {"beep": "beep.wav"}, "events": [{"at": 0, "do": "play", "sound": "beep"}, {"at": 0.5, "do": "music.play", "sound": "beep", "loopEnd": 100}]}"#, event: 1),
        BadScene(name: "loopStart after loopEnd", json: #"{"duration": 1, "sounds": {"beep": "beep.wav"}, "events": [{"at": 0, "do": "music.crossfade", "sound": "beep", "duration": 0.1, "loopStart": 0.2, "loopEnd": 0.1}]}"#, event: 0),
        BadScene(name: "unknown resampler", json: #"{"duration": 1, "resampler": "sinc", "sounds": {"beep": "beep.wav"}, "events": []}"#, event: nil),
    ]

    @Test(arguments: badScenes)
    func badSceneFailsWithOneLineAndNoOutput(_ bad: BadScene) throws {
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(atPath: Self.beep, toPath: folder.appendingPathComponent("beep.wav").path)
        var garbage = Data("RIFF".utf8) + Data([0x24, 0, 0, 0]) + Data("WAVEfmt ".utf8)
        garbage += Data((0..<200).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })
        try garbage.write(to: folder.appendingPathComponent("garbage.wav"))
        let scene = try Self.write(bad.json, to: folder)
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()

        let run = try Self.run(["render", scene.path, "--output", folder.appendingPathComponent("out.wav").path,
                                "--log", folder.appendingPathComponent("out.jsonl").path,
                                "--plot", folder.appendingPathComponent("out.svg").path])
        #expect(run.status != 0)
        let lines = run.standardError.split(separator: "\n", omittingEmptySubsequences: true)
        #expect(lines.count == 1, "stderr: \(run.standardError)")
        #expect(run.standardError.contains("scene.json"), "stderr: \(run.standardError)")
        if let event = bad.event {
            #expect(run.standardError.contains("event \(event)"), "stderr: \(run.standardError)")
        }
        let after = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(after == before, "left behind: \(Set(after).subtracting(before).sorted())")
    }

    /// Bad options fail as bad scenes do: one line naming the scene file and the problem, no
    /// usage block, no output. Each list is the arguments after `render SCENE`.
    @Test(arguments: [["--output"], ["-o", "out.wav", "--bogus"], [], ["--output", "out.wav", "--float=yes"], ["-o", "out.wav", "extra"]])
    func badOptionsFailWithOneLineNamingTheScene(_ options: [String]) throws {
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scene = try Self.write(Self.beepAtPlusX, to: folder, name: "level.json")
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let run = try Self.run(["render", scene.path] + options, in: folder)
        #expect(run.status != 0)
        let lines = run.standardError.split(separator: "\n", omittingEmptySubsequences: true)
        #expect(lines.count == 1, "stderr: \(run.standardError)")
        #expect(lines.first?.hasPrefix("interlude render: \(scene.path): ") == true, "stderr: \(run.standardError)")
        #expect(run.standardOutput.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == before)
    }

    @Test func aMissingSceneArgumentIsOneLineToo() throws {
        let run = try Self.run(["render", "--output", "out.wav"])
        #expect(run.status != 0)
        #expect(run.standardError.split(separator: "\n").count == 1, "stderr: \(run.standardError)")
        #expect(run.standardError.contains("<scene>"))
    }

    @Test func infoExitsZeroAndMentionsTheNullBackend() throws {
        let run = try Self.run(["info"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("null backend"), "\(run.standardOutput)")
        #expect(run.standardOutput.contains("ALSOFT"))
    }

    /// Every interruption source is listed with whether this machine offers it. With no audio
    /// server and no system bus (this run points both at nothing) that is said plainly, and info
    /// still succeeds.
    @Test func infoListsTheInterruptionSourcesAndWhatIsMissing() throws {
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let nowhere = "unix:path=\(folder.path)/no-such-socket"
        let run = try Self.run(["info"], environment: ["PULSE_SERVER": nowhere, "DBUS_SYSTEM_BUS_ADDRESS": nowhere])
        #expect(run.status == 0, "\(run.standardError)")
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        let sources = lines.drop { !$0.hasPrefix("Interruption sources") }
        for name in ["game", "jobControl", "phoneStream", "sleep", "sessionSwitch", "device"] {
            #expect(sources.contains { $0.hasPrefix("  - \(name)") }, "no line for \(name): \(run.standardOutput)")
        }
        #expect(sources.contains { $0.hasPrefix("  - phoneStream") && $0.contains("unavailable here: no audio server") })
        #expect(sources.contains { $0.hasPrefix("  - sleep") && $0.contains("unavailable here: no system bus") })
    }

    @Test func infoDescribesAFileByItsContent() throws {
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A FLAC file named .ogg, with loop tags: read by content, tags and all.
        let fixture = try CodecFixture()
        let flac = try fixture.encode(.flac, CodecFixture.loopSine(), channelCount: 2, name: "theme")
        try CodecFixture.run(["metaflac", "--set-tag=LOOPSTART=12000", "--set-tag=LOOPLENGTH=24000", flac])
        let misnamed = folder.appendingPathComponent("theme.ogg")
        try FileManager.default.copyItem(atPath: flac, toPath: misnamed.path)
        let run = try Self.run(["info", misnamed.path])
        #expect(run.status == 0, "\(run.standardError)")
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.contains("Format: FLAC"), "\(run.standardOutput)")
        #expect(lines.contains("Sample rate: 48000 Hz"))
        #expect(lines.contains("Channels: 2 (stereo)"))
        #expect(lines.contains("Length: 48000 frames (1.000 s)"))
        #expect(lines.contains { $0.hasPrefix("Loop: 12000 frames (0.250 s) to 36000 frames (0.750 s)") }, "\(run.standardOutput)")

        let untagged = try Self.run(["info", Self.beep])
        #expect(untagged.status == 0)
        #expect(untagged.standardOutput.contains("Format: WAV"))
        #expect(untagged.standardOutput.contains("Loop: none declared"))
    }

    @Test func infoOfABadFileNamesItAndFails() throws {
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = folder.appendingPathComponent("notes.wav")
        try Data("just some text, not audio".utf8).write(to: text)
        let run = try Self.run(["info", text.path])
        #expect(run.status == 1)
        #expect(run.standardError.contains("notes.wav"), "\(run.standardError)")
        #expect(run.standardError.contains("unrecognised file type"), "\(run.standardError)")
        let missing = try Self.run(["info", folder.appendingPathComponent("absent.ogg").path])
        #expect(missing.status == 1)
        #expect(missing.standardError.contains("absent.ogg"))
    }

    @Test func infoShowsTheOutputLatencyInEffect() throws {
        // The null backend opens everywhere.
        let run = try Self.run(["info"], environment: ["ALSOFT_DRIVERS": "null"])
        #expect(run.status == 0, "\(run.standardError)")
        let line = run.standardOutput.split(separator: "\n").first { $0.hasPrefix("Output latency in effect: ") }
        let setting = try #require(SoundEngine.Configuration().outputLatency)
        #expect(line?.contains("ms periods, from Configuration.outputLatency .\(setting.rawValue)") == true, "\(run.standardOutput)")
    }

    @Test func playOnTheNullDeviceExits() throws {
        let run = try Self.run(["play", Self.beep, "--device", "null"], limitSeconds: 20)
        #expect(!run.wasKilled, "interlude play did not exit within 20 s")
        #expect(run.status == 0, "\(run.standardError)")
    }
}

extension EngineSuites {
    /// `interlude info` against a real audio server (serialized with the other server tests).
    @Suite struct InfoAudioServerTests {
        /// With a private PulseAudio server running, the audio server's sources are available.
        @Test func infoFindsARunningAudioServer() throws {
            let server = try PrivatePulseServer()
            try server.start()
            defer { server.stop() }
            let run = try RenderCommandTests.run(["info"], environment: server.clientEnvironment)
            #expect(run.status == 0, "\(run.standardError)")
            #expect(run.standardOutput.split(separator: "\n").contains { $0.hasPrefix("  - phoneStream") && $0.contains("available: an audio server answers") },
                    "\(run.standardOutput)")
        }
    }
}
