import Foundation
import Testing
@_spi(Tools) @testable import Interlude

extension EngineSuites {
    /// API misuse from docs/bad-input.md: each call gets a typed error or does nothing, never
    /// reaches OpenAL with a bad value, and leaves the engine working (no internal AL error).
    @Suite struct BadInputTests {
        /// "ok", or the error code the call threw.
        static func outcome(_ body: () throws -> Void) -> String {
            do {
                try body()
                return "ok"
            } catch let error as InterludeError {
                return error.code.rawValue
            } catch {
                return "other: \(error)"
            }
        }

        static func offlineEngine() throws -> SoundEngine {
            var configuration = SoundEngine.Configuration(output: .offline())
            configuration.runsDriverThread = false
            return try SoundEngine(configuration: configuration)
        }

        static func tone(_ engine: SoundEngine) throws -> Sound {
            try engine.makeSound(name: "tone", format: AudioFormat(sampleRate: 48_000, channelCount: 1),
                                 samples: (0..<4_800).map { sinf(Float($0) * 0.06) * 0.5 })
        }

        @Test func outOfRangeParametersThrowInvalidArgument() throws {
            let engine = try Self.offlineEngine()
            defer { engine.shutdown() }
            let sound = try Self.tone(engine)
            let nan = Float.nan
            #expect(Self.outcome { try engine.play(sound, parameters: VoiceParameters(position: nil, gain: -1)) } == "invalidArgument")
            #expect(Self.outcome { try engine.play(sound, parameters: VoiceParameters(position: nil, gain: .infinity)) } == "invalidArgument")
            #expect(Self.outcome { try engine.play(sound, parameters: VoiceParameters(position: nil, pitch: 0)) } == "invalidArgument")
            #expect(Self.outcome { try engine.play(sound, parameters: VoiceParameters(position: Vector3(nan, 0, 0))) } == "invalidArgument")
            let voice = try engine.play(sound, parameters: VoiceParameters(position: Vector3(1, 0, 0), isLooping: true))
            #expect(Self.outcome { try engine.setGain(-0.5, of: voice) } == "invalidArgument")
            #expect(Self.outcome { try engine.setGain(nan, of: voice) } == "invalidArgument")
            #expect(Self.outcome { try engine.setPitch(-2, of: voice) } == "invalidArgument")
            #expect(Self.outcome { try engine.setPosition(Vector3(0, nan, 0), of: voice) } == "invalidArgument")
            #expect(Self.outcome { try engine.setVelocity(Vector3(0, 0, .infinity), of: voice) } == "invalidArgument")
            #expect(Self.outcome { try engine.changeListener { $0.position = Vector3(nan, nan, nan) } } == "invalidArgument")
            #expect(Self.outcome { try engine.setDoppler(factor: nan, speedOfSoundMetresPerSecond: 343) } == "invalidArgument")
            #expect(Self.outcome { try engine.setGain(-1, of: .sfx) } == "invalidArgument")
            #expect(Self.outcome { try engine.setGain(1, of: .sfx, fadeSeconds: .nan) } == "invalidArgument")
            #expect(Self.outcome { _ = try engine.render(frameCount: -1) } == "invalidArgument")
            let track = try engine.playMusic(path: TestPaths.asset("music/theme.ogg"))
            #expect(Self.outcome { try engine.seek(track, toFrame: -1) } == "invalidArgument")
            #expect(Self.outcome { try engine.setGain(-1, of: track) } == "invalidArgument")
            #expect(Self.outcome { try engine.stop(track, fadeSeconds: .infinity) } == "invalidArgument")
            try engine.stop(track)
            // A stale track handle is a harmless no-op.
            #expect(Self.outcome { try engine.seek(track, toFrame: 0) } == "ok")
            #expect(Self.outcome { _ = try engine.makeSound(name: "empty", format: AudioFormat(sampleRate: 48_000, channelCount: 1), samples: []) } == "invalidArgument")
            #expect(Self.outcome { _ = try engine.makeSound(name: "6ch", format: AudioFormat(sampleRate: 48_000, channelCount: 6), samples: [0, 0, 0, 0, 0, 0]) } == "unsupportedFormat")
            #expect(Self.outcome { _ = try engine.makeSound(name: "odd", format: AudioFormat(sampleRate: 48_000, channelCount: 2), samples: [0, 0, 0]) } == "invalidArgument")
            #expect(Self.outcome { _ = try engine.loadSound(path: "/nonexistent/sound.wav") } == "fileNotFound")
            #expect(Self.outcome { _ = try engine.loadSound(path: "/tmp") } == "unreadableFile")
            #expect(Self.outcome { try engine.playMusic(path: "/nonexistent/track.ogg") } == "fileNotFound")
            // The voice kept its last good values and the engine is healthy.
            #expect(engine.parameters(of: voice)?.gain == 1)
            #expect(engine.parameters(of: voice)?.position == Vector3(1, 0, 0))
            let samples = try engine.render(frameCount: 4_800)
            #expect(samples.allSatisfy { $0.isFinite })
            #expect(samples.contains { $0 != 0 })
            #expect(engine.statistics.internalErrorCount == 0)
        }

        @Test func badConfigurationsThrowInvalidArgument() {
            var configuration = SoundEngine.Configuration(output: .offline())
            configuration.monoSourceCount = 0
            #expect(Self.outcome { _ = try SoundEngine(configuration: configuration) } == "invalidArgument")
            configuration = SoundEngine.Configuration(output: .offline(sampleRate: 1, channelCount: 2))
            #expect(Self.outcome { _ = try SoundEngine(configuration: configuration) } == "invalidArgument")
            configuration = SoundEngine.Configuration(output: .offline())
            configuration.updateIntervalSeconds = .nan
            #expect(Self.outcome { _ = try SoundEngine(configuration: configuration) } == "invalidArgument")
        }

        @Test func objectsFromAnotherEngineAreRejectedOrIgnored() throws {
            let engine = try Self.offlineEngine()
            defer { engine.shutdown() }
            let other = try Self.offlineEngine()
            defer { other.shutdown() }
            let sound = try Self.tone(engine)
            let foreignSound = try Self.tone(other)
            #expect(Self.outcome { try engine.play(foreignSound) } == "foreignObject")
            #expect(Self.outcome { try engine.unloadSound(foreignSound) } == "ok")
            let voice = try engine.play(sound, parameters: VoiceParameters(position: nil, isLooping: true))
            let foreignVoice = try other.play(foreignSound, parameters: VoiceParameters(position: nil, isLooping: true))
            // A handle from another engine is stale here, even where its slot and generation match.
            #expect(voice.slot == foreignVoice.slot)
            try engine.stop(foreignVoice)
            try engine.pause(foreignVoice)
            #expect(Self.outcome { try engine.setGain(0, of: foreignVoice) } == "ok")
            #expect(engine.parameters(of: foreignVoice) == nil)
            #expect(engine.positionInFrames(of: foreignVoice) == nil)
            #expect(engine.isPlaying(voice))
            #expect(engine.parameters(of: voice)?.gain == 1)
            #expect(other.isPlaying(foreignVoice))
            // So is a track handle, though both engines' first tracks share channel and track id.
            let track = try engine.playMusic(path: TestPaths.asset("music/sweep.ogg"))
            let foreignTrack = try other.playMusic(path: TestPaths.asset("music/sweep.ogg"))
            #expect(track.channel == foreignTrack.channel && track.trackID == foreignTrack.trackID)
            _ = try engine.render(frameCount: 4_800)
            let trackFrame = try #require(engine.positionInFrames(of: track))
            try engine.setGain(0, of: foreignTrack)
            try engine.pause(foreignTrack)
            try engine.seek(foreignTrack, toFrame: 0)
            try engine.stop(foreignTrack)
            #expect(engine.positionInFrames(of: foreignTrack) == nil && engine.duration(of: foreignTrack) == nil)
            #expect(!engine.isPlaying(foreignTrack))
            #expect(engine.isPlaying(track) && engine.positionInFrames(of: track) == trackFrame)
            let after = try engine.render(frameCount: 4_800)
            #expect(SignalMeasure.rms(after, channel: 0, channelCount: 2) > 0.01, "the track was silenced by another engine's handle")
            #expect(try #require(engine.positionInFrames(of: track)) > trackFrame)
            // A stale handle of this engine does nothing too.
            try engine.stop(voice)
            try engine.stop(voice)
            #expect(Self.outcome { try engine.setPitch(2, of: voice) } == "ok")
            #expect(engine.statistics.voiceCount == 0)
            #expect(engine.statistics.internalErrorCount == 0)
            #expect(other.statistics.internalErrorCount == 0)
        }

        @Test func callsAfterShutdownThrowShutDownOrDoNothing() throws {
            let engine = try Self.offlineEngine()
            let sound = try Self.tone(engine)
            let voice = try engine.play(sound, parameters: VoiceParameters(position: nil, isLooping: true))
            engine.shutdown()
            engine.shutdown()
            #expect(Self.outcome { try engine.play(sound) } == "shutDown")
            #expect(Self.outcome { _ = try engine.render(frameCount: 480) } == "shutDown")
            #expect(Self.outcome { _ = try engine.makeSound(name: "late", format: AudioFormat(sampleRate: 48_000, channelCount: 1), samples: [0]) } == "shutDown")
            #expect(Self.outcome { try engine.setGain(0.5, of: voice) } == "shutDown")
            #expect(Self.outcome { try engine.playMusic(path: "/nonexistent.ogg") } == "shutDown")
            #expect(Self.outcome { try engine.reconnectDevice() } == "shutDown")
            #expect(Self.outcome { _ = try engine.savedState() } == "shutDown")
            #expect(Self.outcome { try engine.setListener(Listener()) } == "shutDown")
            #expect(Self.outcome { try engine.stop(voice) } == "shutDown")
            #expect(Self.outcome { try engine.beginInterruption() } == "shutDown")
            #expect(Self.outcome { try engine.endInterruption(shouldResume: true) } == "shutDown")
            #expect(Self.outcome { try engine.activate() } == "shutDown")
            engine.disconnectDevice()
            engine.update()
            let statistics = engine.statistics
            #expect(statistics.alSourceCount == 0)
            #expect(statistics.alBufferCount == 0)
            #expect(statistics.deviceName == nil)
        }
    }
}
