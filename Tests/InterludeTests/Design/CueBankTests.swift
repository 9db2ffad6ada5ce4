import Foundation
import Synchronization
import Testing
@testable import Interlude
@testable import InterludeScene

extension EngineSuites {
    /// Cue bank files: loaded with one call, checked like a scene, nothing made when wrong.
    @Suite struct CueBankTests {
        private final class BankFolder: ScratchFolder {
            init() throws {
                try super.init(prefix: "cue-bank")
                for (name, frequency) in [("low", 300.0), ("high", 800.0)] {
                    let writer = try WAVFileWriter(path: path("\(name).wav"), format: AudioFormat(sampleRate: 48_000, channelCount: 1),
                                                   sampleType: .float32)
                    try writer.append(TestEngine.sineSamples(frequency: frequency, frameCount: 9_600))
                    try writer.finish()
                }
            }

            func write(_ json: String) throws -> String {
                let bank = path("bank.json")
                try Data(json.utf8).write(to: URL(fileURLWithPath: bank))
                return bank
            }
        }

        @Test func aBankMakesItsCuesParametersAndSnapshotsWithOneCall() throws {
            let folder = try BankFolder()
            let bank = try folder.write("""
                { "sounds": { "low": "low.wav", "high": "high.wav" },
                  "parameters": { "speed": { "min": 0, "max": 10, "default": 10 } },
                  "snapshots": { "quiet": { "groups": { "effects": { "gain": 0.5 } } } },
                  "cues": { "alarm": { "variants": ["low", "high"], "order": "sequence", "group": "effects",
                                       "curves": { "gain": { "parameter": "speed", "points": [[0, 0], [10, 1]] } } } } }
                """)
            let engine = try TestEngine.offline()
            try engine.loadBank(path: bank)
            let cue = try #require(engine.cue(named: "alarm"))
            #expect(engine.parameterValue(of: "speed") == 10)
            #expect(engine.mixSnapshot(named: "quiet") != nil)
            var heard: [Double] = []
            for _ in 0..<3 {
                try engine.play(cue: cue)
                let samples = try engine.render(frameCount: 9_600)
                heard.append(SignalMeasure.zeroCrossingFrequency(samples, channel: 0, channelCount: 2, sampleRate: 48_000, frames: 480..<9_000))
            }
            #expect(abs(heard[0] - 300) < 3 && abs(heard[1] - 800) < 3 && abs(heard[2] - 300) < 3, "\(heard)")
        }

        @Test(arguments: [
            (#"{ "sounds": { "low": "low.wav" }, "cues": { "alarm": { "variants": ["low"], "order": "loud" } } }"#, #"cue "alarm""#),
            (#"{ "sounds": { "low": "low.wav" }, "cues": { "alarm": { "variants": ["gone"] } } }"#, #"cue "alarm""#),
            (#"{ "parameters": { "speed": { "min": 2, "max": 1 } } }"#, #"parameter "speed""#),
            (#"{ "snapshots": { "quiet": { "groups": { "sfx": { "gain": -2 } } } } }"#, #"snapshot "quiet""#),
            (#"{ "sounds": { "low": "missing.wav" }, "cues": { "alarm": { "variants": ["low"] } } }"#, #"sound "low""#),
            (#"{ "events": [] }"#, #"unknown key "events""#),
        ])
        func aBadBankNamesTheFaultAndMakesNothing(json: String, named: String) throws {
            let folder = try BankFolder()
            // A good parameter beside the fault: it must not be made either.
            let bank = try folder.write(json.replacingOccurrences(of: #"{ "sounds""#,
                                                                  with: #"{ "parameters": { "made": { "min": 0, "max": 1 } }, "sounds""#))
            let engine = try TestEngine.offline()
            do {
                try engine.loadBank(path: bank)
                Issue.record("loaded: \(json)")
            } catch let error as InterludeError {
                #expect(error.message.hasPrefix(bank), "\(error.message)")
                #expect(error.message.contains(named), "\(error.message)")
            }
            #expect(engine.cue(named: "alarm") == nil)
            #expect(engine.parameterValue(of: "made") == nil)
            #expect(engine.parameterValue(of: "speed") == nil)
        }

        /// Waits up to 5 s for a design event that `matches`; returns it.
        private static func waitForDesignEvent(_ events: borrowing Mutex<[DesignEvent]>, _ matches: (DesignEvent) -> Bool) -> DesignEvent? {
            let deadline = ContinuousClock.now + .seconds(5)
            while ContinuousClock.now < deadline {
                if let event = events.withLock({ events in
                    events.firstIndex(where: matches).map { events.remove(at: $0) }
                }) { return event }
                Thread.sleep(forTimeInterval: 0.01)
            }
            return nil
        }

        /// The frequency a play of the cue `alarm` is heard at.
        private static func heardFrequency(of engine: SoundEngine) throws -> Double {
            let cue = try #require(engine.cue(named: "alarm"))
            try engine.play(cue: cue)
            let samples = try engine.render(frameCount: 9_600)
            return SignalMeasure.zeroCrossingFrequency(samples, channel: 0, channelCount: 2, sampleRate: 48_000, frames: 480..<9_000)
        }

        @Test("A watched bank is loaded again when its file changes (written in place or renamed over): playing voices go on, the next plays follow it, and a bad save keeps the previous bank and says why")
        func aWatchedBankReloadsOnChange() throws {
            let folder = try BankFolder()
            func bank(variant: String) -> String {
                #"{ "sounds": { "low": "low.wav", "high": "high.wav" }, "cues": { "alarm": { "variants": ["\#(variant)"] } } }"#
            }
            let path = try folder.write(bank(variant: "low"))
            let engine = try TestEngine.offline()
            let events = Mutex<[DesignEvent]>([])
            engine.setEventHandler { event in
                switch event {
                case .design(.bankReloaded), .design(.bankReloadFailed):
                    if case .design(let design) = event { events.withLock { $0.append(design) } }
                default:
                    break
                }
            }
            let watcher = try engine.watchBank(path: path)
            defer { watcher.stop() }
            // The watching thread is named, as the engine's own threads are.
            let threads = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")
            let names = threads.compactMap { try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8) }
            #expect(names.contains { $0.hasPrefix(CueBankWatcher.threadName) }, "\(names)")
            #expect(abs(try Self.heardFrequency(of: engine) - 300) < 3)
            let looping = try engine.play(cue: try #require(engine.cue(named: "alarm")))
            try engine.changeParameters(of: looping) { $0.isLooping = true }

            // Saved the way many editors save: a new file renamed over the old one.
            let temporary = folder.path("bank.json.new")
            try Data(bank(variant: "high").utf8).write(to: URL(fileURLWithPath: temporary))
            #expect(rename(temporary, path) == 0)
            let reloaded = Self.waitForDesignEvent(events) { if case .bankReloaded = $0 { true } else { false } }
            #expect(reloaded == .bankReloaded(path: path))
            #expect(engine.isPlaying(looping), "the reload stopped a playing voice")
            try engine.stop(looping)
            _ = try engine.render(frameCount: 4_800)
            #expect(abs(try Self.heardFrequency(of: engine) - 800) < 3)

            // A bad save, written in place: the previous bank stays, and the event says why.
            _ = try folder.write(#"{ "sounds": { "low": "low.wav" }, "cues": { "alarm": { "variants": ["gone"] } } }"#)
            let failed = Self.waitForDesignEvent(events) { if case .bankReloadFailed = $0 { true } else { false } }
            guard case .bankReloadFailed(let failedPath, let error) = failed else {
                Issue.record("no bankReloadFailed event")
                return
            }
            #expect(failedPath == path)
            let expectedName = #"cue "alarm""#
            #expect(error.message.hasPrefix(path) && error.message.contains(expectedName), "\(error.message)")
            #expect(abs(try Self.heardFrequency(of: engine) - 800) < 3)

            // Stopped: a change is no longer loaded.
            watcher.stop()
            _ = try folder.write(bank(variant: "low"))
            Thread.sleep(forTimeInterval: 0.3)
            #expect(events.withLock { $0.isEmpty })
            #expect(abs(try Self.heardFrequency(of: engine) - 800) < 3)
        }
    }
}

extension EngineSuites.CueBankTests {
    /// A bank's tracks of stems are defined on the engine, checked with their files first.
    @Test func aBanksTracksAreDefinedAndABadOneMakesNothing() throws {
        let folder = try StreamFixtureFolder()
        let lead = StreamTone.stereo(331, frameCount: 48_000)
        _ = try folder.writeWAV("lead.wav", lead)
        _ = try folder.writeWAV("negated.wav", lead.map { -$0 })
        _ = try folder.writeWAV("short.wav", Array(lead[0..<48_000]))
        let bank = folder.path("bank.json")
        func write(_ tracks: String) throws {
            try Data("""
                { "sounds": { "lead": "lead.wav", "negated": "negated.wav", "short": "short.wav" },
                  "parameters": { "made": { "min": 0, "max": 1 } }, "tracks": { \(tracks) } }
                """.utf8).write(to: URL(fileURLWithPath: bank))
        }
        try write(#""twins": { "stems": { "lead": "lead", "negated": "negated" }, "bpm": 100, "gains": { "negated": 0 } }"#)
        let engine = try SoundEngine.streamTestEngine()
        try engine.loadBank(path: bank)
        let twins = try #require(engine.musicTrack(named: "twins"))
        #expect(twins.tempo?.bpm == 100 && twins.gains == ["negated": 0] && twins.stems.map(\.name) == ["lead", "negated"])
        // Played by name, it sounds: the negated stem starts at 0.
        try engine.playMusic(twins)
        #expect(StreamMeasure.rms(try engine.render(frameCount: 4_800), frames: 0..<4_800) > 0.2)

        try write(#""twins": { "stems": { "lead": "lead", "short": "short" }, "bpm": 100 }"#)
        let other = try SoundEngine.streamTestEngine()
        do {
            try other.loadBank(path: bank)
            Issue.record("a track whose stems differ in length was loaded")
        } catch let error as InterludeError {
            #expect(error.message.hasPrefix(bank) && error.message.contains("track \"twins\"") && error.message.contains("stem \"short\""),
                    "\(error.message)")
        }
        #expect(other.musicTrack(named: "twins") == nil && other.parameterValue(of: "made") == nil, "nothing made")
    }
}
