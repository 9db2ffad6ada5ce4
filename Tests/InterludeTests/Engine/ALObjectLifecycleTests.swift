import Testing
@_spi(Tools) @testable import Interlude

extension EngineSuites {
    /// AL sources and buffers stay accounted for through a whole lifecycle, and none is left
    /// after shutdown.
    @Suite struct ALObjectLifecycleTests {
        static func expectHealthy(_ engine: SoundEngine, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(engine.statistics.internalErrorCount == 0, sourceLocation: sourceLocation)
        }

        @Test func fullLifecycle() throws {
            let engine = try TestEngine.offline()
            #expect(engine.statistics.alSourceCount == 0)
            #expect(engine.statistics.alBufferCount == 0)
            #expect(engine.statistics.deviceName != nil)

            // Sounds: one buffer each; a stereo one gets its downmix when first played at a position.
            let mono = try TestEngine.sine(engine)
            let (stereo, _) = try TestEngine.leftOnlySine(engine)
            let beep = try engine.loadSound(path: TestPaths.asset("sfx/beep.wav"))
            #expect(engine.statistics.alBufferCount == 3)
            #expect(engine.statistics.loadedSoundCount == 3)
            Self.expectHealthy(engine)

            // Voices: one source each.
            var looping = VoiceParameters(position: Vector3(2, 0, 0))
            looping.isLooping = true
            let a = try engine.play(mono, parameters: looping)
            let b = try engine.play(stereo, parameters: looping)
            var unpositioned = VoiceParameters()
            unpositioned.isLooping = true
            let c = try engine.play(stereo, parameters: unpositioned)
            #expect(engine.statistics.alSourceCount == 3)
            #expect(engine.statistics.alBufferCount == 4)
            #expect(engine.statistics.voiceCount == 3)
            _ = try engine.render(frameCount: 4_800)
            Self.expectHealthy(engine)

            // Sources are reused: play and stop many one-shots.
            for _ in 0..<20 {
                let shot = try engine.play(beep)
                _ = try engine.render(frameCount: 480)
                try engine.stop(shot)
            }
            let sourcesWithPool = engine.statistics.alSourceCount
            #expect(sourcesWithPool == 4, "sources after 20 one-shots: \(sourcesWithPool)")
            #expect(engine.statistics.alBufferCount == 4)
            Self.expectHealthy(engine)

            // Music: a stream source and its queue.
            try engine.playMusic(path: TestPaths.asset("music/theme.ogg"))
            _ = try engine.render(frameCount: 24_000)
            let withMusic = engine.statistics
            #expect(withMusic.alSourceCount > sourcesWithPool)
            #expect(withMusic.alBufferCount > 4)
            Self.expectHealthy(engine)

            // An interruption changes no counts.
            try engine.beginInterruption(reason: .call)
            _ = try engine.render(frameCount: 4_800)
            #expect(engine.statistics.alSourceCount == withMusic.alSourceCount)
            #expect(engine.statistics.alBufferCount == withMusic.alBufferCount)
            try engine.endInterruption(shouldResume: true)
            _ = try engine.render(frameCount: 4_800)
            #expect(engine.statistics.alSourceCount == withMusic.alSourceCount)
            #expect(engine.statistics.alBufferCount == withMusic.alBufferCount)
            Self.expectHealthy(engine)

            // Device loss: nothing is left on the old device; the rebuild makes what the model needs.
            engine.disconnectDevice()
            #expect(engine.statistics.alSourceCount == 0)
            #expect(engine.statistics.alBufferCount == 0)
            #expect(engine.statistics.deviceName == nil)
            #expect(engine.statistics.voiceCount == 3)
            _ = try engine.render(frameCount: 4_800)
            try engine.reconnectDevice()
            #expect(engine.statistics.deviceName != nil)
            let rebuilt = engine.statistics
            let musicSources = withMusic.alSourceCount - sourcesWithPool
            #expect(rebuilt.alSourceCount == 3 + musicSources, "sources after rebuild: \(rebuilt.alSourceCount)")
            #expect(rebuilt.alBufferCount == withMusic.alBufferCount, "buffers after rebuild: \(rebuilt.alBufferCount), before loss \(withMusic.alBufferCount)")
            let resumed = try engine.render(frameCount: 4_800)
            #expect(SignalMeasure.rms(resumed, channel: 1, channelCount: 2, frames: 480..<4_800) > 0.05)
            #expect(engine.isPlaying(a) && engine.isPlaying(b) && engine.isPlaying(c))
            Self.expectHealthy(engine)

            // Stop everything: sources are kept for reuse, not leaked or grown.
            try engine.stop(a)
            try engine.stop(b)
            try engine.stop(c)
            try engine.stop(engine.track())
            _ = try engine.render(frameCount: 24_000)
            #expect(engine.statistics.voiceCount == 0)
            #expect(engine.statistics.alSourceCount <= rebuilt.alSourceCount)
            #expect(engine.statistics.alBufferCount == 4, "buffers after music stopped: \(engine.statistics.alBufferCount)")

            // Unloading frees the sound's buffers.
            try engine.unloadSound(stereo)
            #expect(engine.statistics.alBufferCount == 2)
            #expect(engine.statistics.loadedSoundCount == 2)
            Self.expectHealthy(engine)

            engine.shutdown()
            let closed = engine.statistics
            #expect(closed.alSourceCount == 0)
            #expect(closed.alBufferCount == 0)
            #expect(closed.deviceName == nil)
            #expect(closed.voiceCount == 0)
        }

        @Test func unloadWhileInterruptedFreesTheBuffersAtTheEnd() throws {
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            let mono = try TestEngine.sine(engine)
            let (stereo, _) = try TestEngine.leftOnlySine(engine)
            var looping = VoiceParameters()
            looping.isLooping = true
            try engine.play(stereo, parameters: looping)
            #expect(engine.statistics.alBufferCount == 2)
            try engine.beginInterruption()
            try engine.unloadSound(stereo)
            #expect(engine.statistics.voiceCount == 0)
            try engine.endInterruption(shouldResume: true)
            #expect(engine.statistics.alBufferCount == 1, "buffers after the unload took effect: \(engine.statistics.alBufferCount)")
            let samples = try engine.render(frameCount: 4_800)
            #expect(SignalMeasure.rms(samples, channel: 0, channelCount: 2) == 0)
            _ = try engine.play(mono, parameters: looping)
            Self.expectHealthy(engine)
        }

        @Test func soundsLoadedWhileInterruptedOrLostAreUploadedLater() throws {
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            try engine.beginInterruption()
            let mono = try TestEngine.sine(engine)
            try engine.endInterruption(shouldResume: true)
            var looping = VoiceParameters()
            looping.isLooping = true
            try engine.play(mono, parameters: looping)
            #expect(engine.statistics.alBufferCount == 1)
            engine.disconnectDevice()
            let (stereo, _) = try TestEngine.leftOnlySine(engine)
            try engine.reconnectDevice()
            #expect(engine.statistics.alBufferCount == 2)
            try engine.play(stereo, parameters: looping)
            let samples = try engine.render(frameCount: 4_800)
            #expect(SignalMeasure.rms(samples, channel: 0, channelCount: 2, frames: 480..<4_800) > 0.1)
            Self.expectHealthy(engine)
        }
    }
}
