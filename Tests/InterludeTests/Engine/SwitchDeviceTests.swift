import Foundation
import Interlude
import Testing

extension EngineSuites {
    /// switchDevice(to:) on offline engines (the real-device case runs against a private
    /// PulseAudio server in Integration/PulseDeviceLossTests).
    @Suite struct SwitchDeviceTests {
        static let sweep = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("assets/music/sweep.ogg").path

        @Test("offline to another offline format keeps the soundtrack's position and its paused state")
        func offlineToOffline() throws {
            let engine = try SoundEngine(configuration: .init(output: .offline(sampleRate: 48_000, channelCount: 2)))
            defer { engine.shutdown() }
            try engine.playMusic(path: Self.sweep)
            _ = try engine.render(frameCount: 48_000)
            let before = try #require(engine.musicPosition())
            #expect(before > 40_000)
            try engine.switchDevice(to: .offline(sampleRate: 44_100, channelCount: 2))
            #expect(engine.currentOutput == .offline(sampleRate: 44_100, channelCount: 2))
            #expect(engine.configuration.output == .offline(sampleRate: 48_000, channelCount: 2))
            #expect(engine.musicPosition() == before)
            #expect(engine.isTrackPlaying())
            let moved = try engine.render(frameCount: 4_410)
            #expect(moved.count == 8_820)
            #expect(moved.contains { abs($0) > 0.1 }, "the soundtrack plays on the new device")
            #expect(engine.statistics.sampleRate == 44_100)

            try engine.pause(engine.track())
            let paused = try #require(engine.musicPosition())
            try engine.switchDevice(to: .offline(sampleRate: 48_000, channelCount: 2))
            #expect(!engine.isTrackPlaying(), "what was paused stays paused")
            let silent = try engine.render(frameCount: 4_800)
            #expect(silent.allSatisfy { $0 == 0 })
            #expect(engine.musicPosition() == paused)
            try engine.resume(engine.track())
            #expect(try engine.render(frameCount: 4_800).contains { abs($0) > 0.1 })
            #expect(engine.statistics.internalErrorCount == 0)
        }

        @Test("a mono offline engine plays the stereo soundtrack (switched to, or from the start)")
        func monoOutput() throws {
            let engine = try SoundEngine(configuration: .init(output: .offline(sampleRate: 48_000, channelCount: 1)))
            defer { engine.shutdown() }
            try engine.playMusic(path: Self.sweep)
            let samples = try engine.render(frameCount: 4_800)
            #expect(samples.count == 4_800)
            // Stereo music used AL_DIRECT_CHANNELS_SOFT, which OpenAL Soft 1.19 drops on a mono device.
            #expect(samples.contains { abs($0) > 0.1 })
            try engine.switchDevice(to: .offline(sampleRate: 48_000, channelCount: 2))
            #expect(try engine.render(frameCount: 4_800).contains { abs($0) > 0.1 })
            try engine.switchDevice(to: .offline(sampleRate: 44_100, channelCount: 1))
            #expect(try engine.render(frameCount: 4_410).contains { abs($0) > 0.1 })
        }

        @Test("offline and real-time outputs do not mix: .invalidArgument, engine unchanged")
        func offlineToRealThrows() throws {
            let engine = try SoundEngine(configuration: .init(output: .offline()))
            defer { engine.shutdown() }
            #expect(throws: InterludeError.self) { try engine.switchDevice(to: .systemDefault) }
            do {
                try engine.switchDevice(to: .null)
            } catch let error as InterludeError {
                #expect(error.code == .invalidArgument)
            }
            #expect(engine.currentOutput == .offline())
            #expect(try engine.render(frameCount: 480).count == 960)
        }
    }
}
