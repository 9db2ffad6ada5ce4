import Foundation
import SoakScenario
import Testing
@_spi(Tools) @testable import Interlude
@testable import InterludeScene

/// Random sequences of session operations checked against a small reference model of what
/// the scene contract's rules 2 to 6 and 8 to 10 say should be playing: the game's own hold and
/// the device loss are two holders, and the session is active only when neither holds it.
extension EngineSuites {
    @Suite struct SessionPropertyTests {
        static let sequenceCount = 10_000
        static let sampleRate = 8_000

        enum Operation: CustomStringConvertible {
            case begin, end(shouldResume: Bool), activate
            case playOneShot, playLooping, stop(Int), pause(Int), resume(Int), systemSound
            case musicPlay, musicPause, musicResume, musicStop
            case deviceLost, deviceRestored

            var description: String {
                switch self {
                case .begin: "begin"
                case .end(let shouldResume): "end(\(shouldResume))"
                case .activate: "activate"
                case .playOneShot: "play(oneShot)"
                case .playLooping: "play(looping)"
                case .stop(let index): "stop(v\(index))"
                case .pause(let index): "pause(v\(index))"
                case .resume(let index): "resume(v\(index))"
                case .systemSound: "systemSound"
                case .musicPlay: "music.play"
                case .musicPause: "music.pause"
                case .musicResume: "music.resume"
                case .musicStop: "music.stop"
                case .deviceLost: "device.lost"
                case .deviceRestored: "device.restored"
                }
            }

            static func random(voiceCount: Int, using generator: inout SplitMix64) -> Operation {
                let voice = Int.random(in: 0..<max(1, voiceCount), using: &generator)
                switch Int.random(in: 0..<18, using: &generator) {
                case 0, 1: return .begin
                case 2, 3: return .end(shouldResume: Bool.random(using: &generator))
                case 4: return .activate
                case 5: return .playOneShot
                case 6: return .playLooping
                case 7: return voiceCount > 0 ? .stop(voice) : .playLooping
                case 8: return voiceCount > 0 ? .pause(voice) : .playOneShot
                case 9: return voiceCount > 0 ? .resume(voice) : .playLooping
                case 10: return .systemSound
                case 11: return .musicPlay
                case 12: return .musicPause
                case 13: return .musicResume
                case 14: return .musicStop
                case 15: return .deviceLost
                case 16: return .deviceRestored
                default: return .begin
                }
            }
        }

        /// What should be playing, as the rules say.
        struct Model {
            enum State { case playing, paused, held, pending, gone }
            let policy: ResumePolicy
            /// The game's own calls hold the session.
            var gameHolds = false
            /// The device is lost: a hold only a restore ends.
            var isLost = false
            var isInterrupted: Bool { gameHolds || isLost }
            var music = State.gone
            var voices: [(isLooping: Bool, state: State)] = []
            var systemSoundsPlaying = 0

            static func isPlaying(_ state: State) -> Bool { state == .playing || state == .held || state == .pending }

            var isAudible: Bool {
                !isInterrupted && (music == .playing || systemSoundsPlaying > 0 || voices.contains { $0.state == .playing })
            }

            mutating func apply(_ operation: Operation) {
                switch operation {
                case .begin:
                    hold()
                    gameHolds = true
                case .end(let shouldResume):
                    // The last holder's end decides; an end while the device is lost only lets go.
                    if gameHolds {
                        gameHolds = false
                        if !isLost { end(resumesHeld: policy == .alwaysResume || shouldResume) }
                    }
                case .activate:
                    // Ends the game's hold; it cannot end a device loss.
                    if gameHolds {
                        gameHolds = false
                        if !isLost { end(resumesHeld: true) }
                    }
                case .deviceLost:
                    hold()
                    isLost = true
                case .deviceRestored:
                    // A restore while the game still holds stays silent until the game lets go.
                    if isLost {
                        isLost = false
                        if !gameHolds { end(resumesHeld: true) }
                    }
                case .playOneShot:
                    voices.append((false, isInterrupted ? .gone : .playing))
                case .playLooping:
                    voices.append((true, isInterrupted ? .pending : .playing))
                case .stop(let index):
                    voices[index].state = .gone
                case .pause(let index):
                    if voices[index].state != .gone { voices[index].state = .paused }
                case .resume(let index):
                    voices[index].state = resumed(voices[index].state)
                case .systemSound:
                    if !isInterrupted { systemSoundsPlaying += 1 }
                case .musicPlay:
                    music = isInterrupted ? .pending : .playing
                case .musicPause:
                    if music != .gone { music = .paused }
                case .musicResume:
                    music = resumed(music)
                case .musicStop:
                    music = .gone
                }
            }

            private mutating func hold() {
                guard !isInterrupted else { return }
                if music == .playing { music = .held }
                for index in voices.indices where voices[index].state == .playing { voices[index].state = .held }
                systemSoundsPlaying = 0
            }

            private func resumed(_ state: State) -> State {
                switch state {
                case .gone, .playing: state
                default: isInterrupted ? .pending : .playing
                }
            }

            /// The last holder let go.
            private mutating func end(resumesHeld: Bool) {
                func after(_ state: State) -> State {
                    switch state {
                    case .held: resumesHeld ? .playing : .paused
                    case .pending: .playing
                    default: state
                    }
                }
                music = after(music)
                for index in voices.indices { voices[index].state = after(voices[index].state) }
            }

            /// A render of at least 480 frames while active plays every one-shot (160 frames) out.
            mutating func rendered() {
                guard !isInterrupted else { return }
                systemSoundsPlaying = 0
                for index in voices.indices where !voices[index].isLooping && voices[index].state == .playing {
                    voices[index].state = .gone
                }
            }
        }

        /// A 5 s 300 Hz sine at 0.5, 8 kHz mono, for the soundtrack.
        static func writeMusic(to path: String) throws {
            let writer = try WAVFileWriter(path: path, format: AudioFormat(sampleRate: sampleRate, channelCount: 1), sampleType: .float32)
            try writer.append((0..<sampleRate * 5).map { Float(0.5 * sin(2 * Double.pi * 300 * Double($0) / Double(sampleRate))) })
            try writer.finish()
        }

        @Test("10,000 random sequences of interruptions, device losses and commands keep to the rules")
        func randomSequences() throws {
            let folder = try SessionAssets.temporaryFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let musicPath = folder + "/music.wav"
            try Self.writeMusic(to: musicPath)
            let seed = UInt64(ProcessInfo.processInfo.environment["INTERLUDE_PROPERTY_SEED"] ?? "") ?? 0x5E55_1011
            print("session property test: seed \(seed) (set INTERLUDE_PROPERTY_SEED to replay)")
            var generator = SplitMix64(seed: seed)
            let start = ContinuousClock.now
            var operationCount = 0
            for sequenceIndex in 0..<Self.sequenceCount {
                let policy: ResumePolicy = Bool.random(using: &generator) ? .alwaysResume : .honorShouldResume
                let length = Int.random(in: 5...12, using: &generator)
                var operations: [Operation] = []
                var failure: String?
                try runSequence(policy: policy, length: length, musicPath: musicPath, generator: &generator,
                                operations: &operations, failure: &failure)
                operationCount += operations.count
                if let failure {
                    Issue.record("""
                        sequence \(sequenceIndex) (seed \(seed), policy \(policy)) broke a rule: \(failure)
                        operations: \(operations.map(\.description).joined(separator: ", "))
                        """)
                    return
                }
            }
            print("session property test: \(Self.sequenceCount) sequences, \(operationCount) operations in \(ContinuousClock.now - start)")
        }

        private func runSequence(policy: ResumePolicy, length: Int, musicPath: String, generator: inout SplitMix64,
                                 operations: inout [Operation], failure: inout String?) throws {
            var configuration = SoundEngine.Configuration(output: .offline(sampleRate: Self.sampleRate, channelCount: 1))
            configuration.resumePolicy = policy
            configuration.mediaRole = nil
            let engine = try SoundEngine(configuration: configuration)
            // Always positive: voices of the same sound can never cancel each other out exactly
            // (two copies of a sine half a cycle apart sum to exact zeros).
            let tone = (0..<160).map { Float(0.3 + 0.2 * sin(2 * Double.pi * 500 * Double($0) / Double(Self.sampleRate))) }
            let oneShot = try engine.makeSound(name: "oneShot", format: AudioFormat(sampleRate: Self.sampleRate, channelCount: 1), samples: tone)
            let loop = try engine.makeSound(name: "loop", format: AudioFormat(sampleRate: Self.sampleRate, channelCount: 1), samples: tone)
            var model = Model(policy: policy)
            var handles: [VoiceHandle] = []

            func check(_ condition: @autoclosure () -> Bool, _ what: @autoclosure () -> String) {
                if failure == nil && !condition() { failure = "after op \(operations.count) (\(operations.last?.description ?? "-")): \(what())" }
            }

            for _ in 0..<length {
                let operation = Operation.random(voiceCount: handles.count, using: &generator)
                operations.append(operation)
                switch operation {
                case .begin: try engine.beginInterruption()
                case .end(let shouldResume): try engine.endInterruption(shouldResume: shouldResume)
                case .activate: try engine.activate()
                case .playOneShot: handles.append(try engine.play(oneShot))
                case .playLooping:
                    var parameters = VoiceParameters()
                    parameters.isLooping = true
                    handles.append(try engine.play(loop, parameters: parameters))
                case .stop(let index): try engine.stop(handles[index])
                case .pause(let index): try engine.pause(handles[index])
                case .resume(let index): try engine.resume(handles[index])
                case .systemSound: try engine.playSystemSound(oneShot)
                case .musicPlay: try engine.playMusic(path: musicPath)
                case .musicPause: if let music = engine.music() { try engine.pause(music) }
                case .musicResume: if let music = engine.music() { try engine.resume(music) }
                case .musicStop: if let music = engine.music() { try engine.stop(music) }
                case .deviceLost: engine.disconnectDevice()
                case .deviceRestored: if model.isLost { try engine.reconnectDevice() }
                }
                model.apply(operation)

                // State right after the operation.
                check(engine.sessionState.isActive == !model.isInterrupted, "session \(engine.sessionState), model interrupted \(model.isInterrupted)")
                if model.isInterrupted {
                    check(SessionRig.noContextIsCurrent, "a context is current while interrupted")
                } else {
                    check(engine.readCore { $0.device.isContextCurrent }, "the engine's context is not current while active")
                }
                check(engine.isTrackPlaying() == Model.isPlaying(model.music), "isMusicPlaying \(engine.isTrackPlaying()), model \(model.music)")
                for (index, handle) in handles.enumerated() {
                    check(engine.isPlaying(handle) == Model.isPlaying(model.voices[index].state),
                          "isPlaying(v\(index)) \(engine.isPlaying(handle)), model \(model.voices[index].state)")
                }

                // What it sounds like.
                let audible = model.isAudible
                let frameCount = Int.random(in: 480...960, using: &generator)
                let samples = try engine.render(frameCount: frameCount)
                if model.isInterrupted {
                    check(samples.allSatisfy { $0 == 0 }, "a non-zero sample while interrupted")
                } else if audible {
                    check(samples.contains { $0 != 0 }, "silent, but the model says something plays")
                } else {
                    // OpenAL's de-click may blur a change by up to 5 ms (40 frames); from 1.20 a
                    // pause or stop fades out over 64 frames, whatever the rate (8 ms here).
                    let blurFrames = max(40, OpenALStack.deClickFrames)
                    check(samples.dropFirst(blurFrames).allSatisfy { $0 == 0 }, "sound, but the model says nothing plays")
                }
                model.rendered()
                for (index, handle) in handles.enumerated() {
                    check(engine.isPlaying(handle) == Model.isPlaying(model.voices[index].state),
                          "after render: isPlaying(v\(index)) \(engine.isPlaying(handle)), model \(model.voices[index].state)")
                }
                check(engine.statistics.internalErrorCount == 0, "internal AL errors: \(engine.statistics.internalErrorCount)")
                if failure != nil { break }
            }

            // Stop everything: only pooled sources and the two sounds' buffers may remain.
            if model.isLost { try engine.reconnectDevice() }
            try engine.activate()
            for handle in handles { try engine.stop(handle) }
            if let music = engine.music() { try engine.stop(music) }
            _ = try engine.render(frameCount: 160)
            check(engine.sessionState == .active, "not active after the final restore and activate")
            let (device, pooled) = engine.readCore { ($0.device.openDevice, $0.alRenderer.freeSourceCount) }
            let statistics = engine.statistics
            check(statistics.voiceCount == 0, "voices left: \(statistics.voiceCount)")
            check(statistics.alSourceCount == pooled, "AL sources \(statistics.alSourceCount), pooled \(pooled)")
            check(statistics.alBufferCount == 2, "AL buffers \(statistics.alBufferCount), expected 2")
            check(statistics.internalErrorCount == 0, "internal AL errors: \(statistics.internalErrorCount)")
            engine.shutdown()
            check(device.map { $0.liveSourceCount == 0 && $0.liveBufferCount == 0 } ?? false,
                  "AL names alive after shutdown: \(device?.liveSourceCount ?? -1) sources, \(device?.liveBufferCount ?? -1) buffers")
            check(SessionRig.noContextIsCurrent, "a context is current after shutdown")
        }
    }
}
