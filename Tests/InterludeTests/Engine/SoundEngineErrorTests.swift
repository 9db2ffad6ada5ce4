import Testing
@_spi(Tools) @testable import Interlude

extension EngineSuites {
    /// Bad input throws a typed error naming the call; the engine keeps working.
    @Suite struct SoundEngineErrorTests {
        static func expectError(_ code: InterludeError.Code, naming call: String, _ body: () throws -> Void,
                                sourceLocation: SourceLocation = #_sourceLocation) {
            do {
                try body()
                Issue.record("expected \(code) naming \(call); nothing was thrown", sourceLocation: sourceLocation)
            } catch let error as InterludeError {
                #expect(error.code == code, "\(error.message)", sourceLocation: sourceLocation)
                #expect(error.message.contains(call), "\(error.message)", sourceLocation: sourceLocation)
            } catch {
                Issue.record("expected InterludeError, got \(error)", sourceLocation: sourceLocation)
            }
        }

        @Test func outOfRangeParametersAreInvalidArguments() throws {
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            let sine = try TestEngine.sine(engine)
            Self.expectError(.invalidArgument, naming: "play") { try engine.play(sine, parameters: VoiceParameters(position: nil, gain: .nan)) }
            Self.expectError(.invalidArgument, naming: "play") { try engine.play(sine, parameters: VoiceParameters(position: nil, gain: -1)) }
            Self.expectError(.invalidArgument, naming: "play") { try engine.play(sine, parameters: VoiceParameters(position: nil, pitch: 0)) }
            Self.expectError(.invalidArgument, naming: "play") { try engine.play(sine, parameters: VoiceParameters(position: Vector3(.infinity, 0, 0))) }
            #expect(engine.statistics.voiceCount == 0)

            var looping = VoiceParameters(position: Vector3(0, 0, -1))
            looping.isLooping = true
            let voice = try engine.play(sine, parameters: looping)
            Self.expectError(.invalidArgument, naming: "setGain") { try engine.setGain(.nan, of: voice) }
            Self.expectError(.invalidArgument, naming: "setGain") { try engine.setGain(-0.5, of: voice) }
            Self.expectError(.invalidArgument, naming: "setPitch") { try engine.setPitch(0, of: voice) }
            Self.expectError(.invalidArgument, naming: "setPitch") { try engine.setPitch(.nan, of: voice) }
            Self.expectError(.invalidArgument, naming: "setPosition") { try engine.setPosition(Vector3(0, .infinity, 0), of: voice) }
            Self.expectError(.invalidArgument, naming: "setVelocity") { try engine.setVelocity(Vector3(.nan, 0, 0), of: voice) }
            Self.expectError(.invalidArgument, naming: "changeListener") { try engine.changeListener { $0.position = Vector3(-.infinity, 0, 0) } }
            Self.expectError(.invalidArgument, naming: "changeListener") { try engine.changeListener { $0.gain = .nan } }
            Self.expectError(.invalidArgument, naming: "setGain(of: sfx)") { try engine.setGain(-1, of: .sfx) }
            Self.expectError(.invalidArgument, naming: "stop(voice)") { try engine.stop(voice, fadeSeconds: -1) }
            Self.expectError(.invalidArgument, naming: "pause(sfx)") { try engine.pause(GroupID.sfx, fadeSeconds: .nan) }
            Self.expectError(.invalidArgument, naming: "setDoppler") { try engine.setDoppler(factor: 1, speedOfSoundMetresPerSecond: 0) }
            Self.expectError(.invalidArgument, naming: "render(frameCount:)") { _ = try engine.render(frameCount: -1) }

            // A throwing call leaves the engine unchanged.
            #expect(engine.parameters(of: voice) == looping)
            #expect(engine.listener == Listener())
            let samples = try engine.render(frameCount: 4_800)
            #expect(SignalMeasure.rms(samples, channel: 0, channelCount: 2, frames: 480..<4_800) > 0.1)
            #expect(engine.statistics.internalErrorCount == 0)
        }

        @Test func badConfigurationIsAnInvalidArgument() {
            Self.expectError(.invalidArgument, naming: "SoundEngine.Configuration") {
                _ = try TestEngine.offline { $0.monoSourceCount = 0 }
            }
            Self.expectError(.invalidArgument, naming: "SoundEngine.Configuration") {
                _ = try TestEngine.offline(channelCount: 1) { $0.hrtf = true }
            }
            for timeout in [-1, .nan, 31] as [Double] {
                Self.expectError(.invalidArgument, naming: "outputStartTimeoutSeconds") {
                    _ = try TestEngine.offline { $0.outputStartTimeoutSeconds = timeout }
                }
            }
            for hold in [-0.5, .infinity, .nan, 3_601] as [Double] {
                Self.expectError(.invalidArgument, naming: "idleOutputPauseSeconds") {
                    _ = try TestEngine.offline { $0.idleOutputPauseSeconds = hold }
                }
            }
        }

        @Test func aSoundFromAnotherEngineIsAForeignObject() throws {
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            let other = try TestEngine.offline()
            defer { other.shutdown() }
            let foreign = try TestEngine.sine(other)
            Self.expectError(.foreignObject, naming: "play") { try engine.play(foreign) }
            Self.expectError(.foreignObject, naming: "playSystemSound") { try engine.playSystemSound(foreign) }
            #expect(engine.statistics.voiceCount == 0)
            // An unloaded sound is no longer this engine's either.
            let mine = try TestEngine.sine(engine)
            try engine.unloadSound(mine)
            Self.expectError(.foreignObject, naming: "play") { try engine.play(mine) }
            #expect(engine.statistics.internalErrorCount == 0)
            #expect(other.statistics.internalErrorCount == 0)
        }

        @Test func callsAfterShutdown() throws {
            let engine = try TestEngine.offline()
            let sine = try TestEngine.sine(engine)
            var parameters = VoiceParameters()
            parameters.isLooping = true
            let voice = try engine.play(sine, parameters: parameters)
            engine.shutdown()
            engine.shutdown()

            Self.expectError(.shutDown, naming: "play") { try engine.play(sine) }
            Self.expectError(.shutDown, naming: "render(frameCount:)") { _ = try engine.render(frameCount: 480) }
            Self.expectError(.shutDown, naming: "loadSound") { _ = try TestEngine.sine(engine) }
            Self.expectError(.shutDown, naming: "setGain") { try engine.setGain(0.5, of: voice) }
            Self.expectError(.shutDown, naming: "setListener") { try engine.setListener(Listener()) }
            Self.expectError(.shutDown, naming: "setDistanceModel") { try engine.setDistanceModel(.linear) }
            Self.expectError(.shutDown, naming: "playMusic") { try engine.playMusic(path: TestPaths.asset("music/theme.ogg")) }
            Self.expectError(.shutDown, naming: "unloadSound") { try engine.unloadSound(sine) }
            Self.expectError(.shutDown, naming: "savedState()") { _ = try engine.savedState() }
            Self.expectError(.shutDown, naming: "reconnectDevice()") { try engine.reconnectDevice() }

            // Every command throws after shutdown; the queries answer neutrally.
            Self.expectError(.shutDown, naming: "stop(voice)") { try engine.stop(voice) }
            Self.expectError(.shutDown, naming: "pause(voice)") { try engine.pause(voice) }
            Self.expectError(.shutDown, naming: "resume(voice)") { try engine.resume(voice) }
            Self.expectError(.shutDown, naming: "beginInterruption") { try engine.beginInterruption() }
            Self.expectError(.shutDown, naming: "endInterruption") { try engine.endInterruption(shouldResume: true) }
            Self.expectError(.shutDown, naming: "activate()") { try engine.activate() }
            Self.expectError(.shutDown, naming: "pause(master)") { try engine.pauseAll() }
            engine.update()
            engine.disconnectDevice()
            #expect(engine.music() == nil)
            #expect(!engine.isPlaying(voice))
            #expect(engine.positionInFrames(of: voice) == nil)
            #expect(engine.musicPosition() == nil)
            let statistics = engine.statistics
            #expect(statistics.voiceCount == 0)
            #expect(statistics.alSourceCount == 0)
            #expect(statistics.alBufferCount == 0)
            #expect(statistics.deviceName == nil)
        }

        @Test func tooManyVoicesThrowsAndTheEngineKeepsWorking() throws {
            // Logical voices are capped by maximumVoiceCount (real sources are a separate budget).
            let engine = try TestEngine.offline { $0.monoSourceCount = 8; $0.stereoSourceCount = 4; $0.maximumVoiceCount = 8 }
            defer { engine.shutdown() }
            let sine = try TestEngine.sine(engine, amplitude: 0.05)
            var parameters = VoiceParameters()
            parameters.isLooping = true
            var voices: [VoiceHandle] = []
            var limitReached = false
            for _ in 0..<64 {
                do {
                    voices.append(try engine.play(sine, parameters: parameters))
                } catch let error as InterludeError {
                    #expect(error.code == .tooManyVoices, "\(error.message)")
                    #expect(error.message.contains("play"), "\(error.message)")
                    limitReached = true
                    break
                }
            }
            #expect(limitReached)
            #expect(voices.count == 8, "voices before the limit: \(voices.count)")
            #expect(engine.statistics.voiceCount == voices.count)
            // Still throws, and a one-shot too.
            Self.expectError(.tooManyVoices, naming: "play") { try engine.play(sine) }
            #expect(engine.statistics.voiceCount == voices.count)

            // Music still has its sources.
            try engine.playMusic(path: TestPaths.asset("music/theme.ogg"))
            let withMusic = try engine.render(frameCount: 4_800)
            #expect(SignalMeasure.rms(withMusic, channel: 0, channelCount: 2, frames: 480..<4_800) > 0.01)
            #expect(engine.isTrackPlaying())
            #expect((engine.musicPosition() ?? 0) > 0)
            try engine.stop(engine.track())

            // Freeing one voice makes room for exactly one more, which plays.
            try engine.stop(voices.removeLast())
            let replacement = try engine.play(sine, parameters: parameters)
            #expect(engine.isPlaying(replacement))
            Self.expectError(.tooManyVoices, naming: "play") { try engine.play(sine) }
            for voice in voices { try engine.stop(voice) }
            let samples = try engine.render(frameCount: 4_800)
            let level = SignalMeasure.rms(samples, channel: 0, channelCount: 2, frames: 480..<4_800)
            #expect(level > 0.01 && level < 0.05, "one voice left: RMS \(level)")
            #expect(engine.statistics.internalErrorCount == 0)
        }
    }
}
