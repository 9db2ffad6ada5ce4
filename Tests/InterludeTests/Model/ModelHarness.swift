import Foundation
import InterludeScene
@_spi(Tools) @testable import Interlude

/// Runs one sequence of ``ModelStep``s on a real offline (loopback) engine and on the
/// ``EngineModel`` together, and compares them after every step: session state and holders,
/// every voice's state and position, the soundtrack's state and position, the group gains, the
/// session events raised, and what the render sounds like (exact silence wherever the model
/// says silent). Returns the first difference, or nil.
struct ModelHarness {
    static let sampleRate = 8_000
    /// The contract's 5 ms for positions and de-click ramps.
    static let toleranceFrames = sampleRate / 200
    /// An update every 5 ms of rendered audio, so a one-shot's end is noticed within the tolerance.
    static let updateIntervalSeconds = 0.005

    /// The sound and track files, written once per test run.
    struct Assets {
        let soundPaths: [String]
        let soundLengths: [Int]
        let trackPaths: [String]
        let trackLengths: [Int]

        /// Sounds of 400 and 1,200 frames, tracks of 1 s and 0.7 s, 8 kHz mono. Every signal
        /// stays positive (0.3 + 0.2 sin), so no two voices can ever cancel out to exact zeros.
        static func write(in folder: String) throws -> Assets {
            func write(_ name: String, frames: Int, frequency: Double) throws -> String {
                let path = folder + "/" + name
                let writer = try WAVFileWriter(path: path, format: AudioFormat(sampleRate: ModelHarness.sampleRate, channelCount: 1),
                                               sampleType: .float32)
                try writer.append((0..<frames).map {
                    Float(0.3 + 0.2 * sin(2 * Double.pi * frequency * Double($0) / Double(ModelHarness.sampleRate)))
                })
                try writer.finish()
                return path
            }
            let soundLengths = [400, 1_200]
            let trackLengths = [8_000, 5_600]
            return Assets(soundPaths: [try write("s0.wav", frames: soundLengths[0], frequency: 500),
                                       try write("s1.wav", frames: soundLengths[1], frequency: 700)],
                          soundLengths: soundLengths,
                          trackPaths: [try write("t0.wav", frames: trackLengths[0], frequency: 300),
                                       try write("t1.wav", frames: trackLengths[1], frequency: 200)],
                          trackLengths: trackLengths)
        }
    }

    let assets: Assets
    let policy: EngineModel.Policy

    /// Runs `steps`; the first difference between engine and model, naming the step, or nil.
    func run(_ steps: [ModelStep]) throws -> String? {
        var run = try Run(assets: assets, policy: policy)
        defer { run.shutdown() }
        for (index, step) in steps.enumerated() {
            if let difference = try run.apply(step) {
                return "step \(index) (\(step)): \(difference)"
            }
        }
        return nil
    }

    /// The session events an engine raised, named as the model names them; the handler runs on
    /// whichever thread raised them.
    final class EventLog: Sendable {
        private let recorded = AnnotatedMutex<[String]>([])
        func append(_ name: String) { recorded.withLock { $0.append(name) } }
        func removeAll() { recorded.withLock { $0.removeAll() } }
        var names: [String] { recorded.withLock { $0 } }
    }

    /// One engine and its model, stepped together.
    private struct Run {
        let assets: Assets
        let policy: EngineModel.Policy
        var engine: SoundEngine
        var sounds: [Sound]
        var model: EngineModel
        /// The handle of each addressable model voice, in the model's order.
        var handles: [VoiceHandle?] = []
        let events = EventLog()
        var channelCount = 1

        init(assets: Assets, policy: EngineModel.Policy) throws {
            self.assets = assets
            self.policy = policy
            model = EngineModel(policy: policy)
            (engine, sounds) = try Self.makeEngine(assets: assets, policy: policy)
            attachEvents()
        }

        static func makeEngine(assets: Assets, policy: EngineModel.Policy) throws -> (SoundEngine, [Sound]) {
            var configuration = SoundEngine.Configuration(output: .offline(sampleRate: ModelHarness.sampleRate, channelCount: 1))
            configuration.mediaRole = nil
            configuration.runsDriverThread = false
            configuration.updateIntervalSeconds = ModelHarness.updateIntervalSeconds
            configuration.resumePolicy = policy == .alwaysResume ? .alwaysResume : .honorShouldResume
            let engine = try SoundEngine(configuration: configuration)
            return (engine, try assets.soundPaths.map { try engine.loadSound(path: $0) })
        }

        mutating func attachEvents() {
            let events = self.events
            engine.setEventHandler { event in
                guard let name = Self.name(of: event) else { return }
                events.append(name)
            }
        }

        /// The session-level events, as the model names them; nil for the per-command ones.
        static func name(of event: EngineEvent) -> String? {
            switch event {
            case .session(.began(_, let source)): "began(\(source))"
            case .session(.ended(_, _, let source)): "ended(\(source))"
            case .session(.activated): "activated"
            case .session(.holdAdded(_, let source)): "holdAdded(\(source))"
            case .session(.holdReleased(let source)): "holdReleased(\(source))"
            case .session(.absorbed): "absorbed"
            case .session(.ignored): "ignored"
            case .device(.lost): "servicesLost"
            case .device(.rebuilt): "servicesReset"
            case .session(.reactivationFailed(let message)): "reactivationFailed(\(message))"
            case .session(.holdKept(let source)): "holdKept(\(source))"
            // The model writes no snapshot that fails: one reported is a mismatch.
            case .savedStateWriteFailed(let path, _): "snapshotWriteFailed(\(path))"
            case .session(.commandDeferred), .session(.commandDropped), .music(.suspended), .music(.resumed), .voice(.resumed),
                 .device(.routeChanged), .device(.outputStarted), .music(.damageSkipped), .music(.underrun), .music(.recovered), .music(.ended), .music(.fadeFinished),
                 .music(.beat), .music(.transitioned), .music(.transitionReplaced), .music(.transitionUnchanged),
                 .music(.quantizeUnavailable), .music(.stingerPlayed), .music(.stingerCancelled),
                 .device(.soundLost),
                 .voice(.finished), .voice(.fadeFinished), .design: nil
            }
        }

        func shutdown() {
            engine.setEventHandler(nil)
            engine.shutdown()
        }

        /// The addressable voices, in the order they were played.
        var addressable: [Int] { model.voices.indices.filter { model.voices[$0].isAddressable } }

        /// The model index and handle a voice step names, or nil when there is no voice.
        func voice(_ number: Int) -> (index: Int, handle: VoiceHandle)? {
            let indices = addressable
            guard !indices.isEmpty else { return nil }
            let position = number % indices.count
            guard let handle = handles[position] else { return nil }
            return (indices[position], handle)
        }

        mutating func apply(_ step: ModelStep) throws -> String? {
            var rendered: [Float]?
            switch step {
            case .play(let sound, let isLooping, let group, let gain):
                var parameters = VoiceParameters()
                parameters.isLooping = isLooping
                parameters.gain = ModelStep.gains[gain]
                parameters.group = GroupID(name: ModelStep.voiceGroups[group])
                handles.append(try engine.play(sounds[sound], parameters: parameters))
                model.play(lengthFrames: assets.soundLengths[sound], isLooping: isLooping,
                           group: ModelStep.voiceGroups[group], gain: ModelStep.gains[gain])
            case .stop(let number):
                if let (index, handle) = voice(number) { try engine.stop(handle); model.stop(index) }
            case .pause(let number):
                if let (index, handle) = voice(number) { try engine.pause(handle); model.pause(index) }
            case .resume(let number):
                if let (index, handle) = voice(number) { try engine.resume(handle); model.resume(index) }
            case .setGain(let number, let gain):
                if let (index, handle) = voice(number), model.voices[index].state != .gone {
                    try engine.setGain(ModelStep.gains[gain], of: handle)
                    model.setGain(ModelStep.gains[gain], of: index)
                }
            case .musicPlay(let track):
                try engine.playMusic(path: assets.trackPaths[track])
                model.playMusic(lengthFrames: assets.trackLengths[track])
            case .musicPause:
                if let music = engine.music() { try engine.pause(music) }; model.pauseMusic()
            case .musicResume:
                if let music = engine.music() { try engine.resume(music) }; model.resumeMusic()
            case .musicStop:
                if let music = engine.music() { try engine.stop(music) }; model.stopMusic()
            case .musicCrossfade(let track, let milliseconds):
                try engine.crossfadeMusic(toPath: assets.trackPaths[track], fadeSeconds: Double(milliseconds) / 1000)
                model.crossfadeMusic(lengthFrames: assets.trackLengths[track], durationFrames: milliseconds * ModelHarness.sampleRate / 1000)
            case .groupGain(let group, let gain):
                let name = ModelStep.gainGroups[group]
                try engine.setGain(ModelStep.gains[gain], of: GroupID(name: name))
                model.setGroupGain(ModelStep.gains[gain], of: name)
            case .listenerGain(let gain):
                try engine.changeListener { $0.gain = ModelStep.gains[gain] }
                model.setListenerGain(ModelStep.gains[gain])
            case .listenerMovesFromThreads:
                let engine = self.engine
                DispatchQueue.concurrentPerform(iterations: ModelStep.listenerThreads) { _ in
                    for _ in 0..<ModelStep.listenerMovesPerThread {
                        try? engine.changeListener { $0.position.x += 1 }
                    }
                }
                model.moveListener(byMetres: Float(ModelStep.listenerThreads * ModelStep.listenerMovesPerThread))
            case .begin(let source, let reason):
                let name = ModelStep.reasons[reason]
                let accepted: Bool
                do {
                    try engine.beginInterruption(reason: InterruptionReason(name),
                                                 source: InterruptionSource(ModelStep.sources[source]))
                    accepted = true
                } catch let error as InterludeError where error.code == .invalidArgument {
                    accepted = false
                }
                if model.begin(source: ModelStep.sources[source], reason: name) != accepted {
                    return "beginInterruption(reason: \(name)) was \(accepted ? "accepted" : "refused")"
                }
            case .end(let source, let shouldResume):
                try engine.endInterruption(shouldResume: shouldResume, source: InterruptionSource(ModelStep.sources[source]))
                model.end(source: ModelStep.sources[source], shouldResume: shouldResume)
            case .activate:
                try engine.activate(); model.activate()
            case .deviceLost:
                engine.disconnectDevice(); model.loseDevice()
            case .deviceRestored:
                try engine.reconnectDevice(); model.restoreDevice()
            case .switchDevice:
                // Between mono and stereo at the same rate; while the device is lost, a switch
                // reopens it at once, as a restore.
                channelCount = 3 - channelCount
                try engine.switchDevice(to: .offline(sampleRate: ModelHarness.sampleRate, channelCount: channelCount))
                model.restoreDevice()
            case .snapshotRestore:
                try snapshotRestore()
            case .render(let frames):
                rendered = try engine.render(frameCount: frames)
            }
            if case .render(let frames) = step {
                if let difference = compareSound(rendered ?? [], frameCount: frames) { return difference }
                model.render(frameCount: frames)
            }
            return compareState()
        }

        /// Saves a snapshot, shuts the engine down and restores the snapshot into a fresh one.
        mutating func snapshotRestore() throws {
            let snapshot = try engine.savedState()
            let json = try JSONEncoder().encode(snapshot)
            shutdown()
            events.removeAll()
            (engine, sounds) = try Self.makeEngine(assets: assets, policy: policy)
            attachEvents()
            channelCount = 1
            try engine.restore(try JSONDecoder().decode(SavedState.self, from: json))
            model.restoreSnapshot()
            // Restored voices have no handles.
            handles = []
        }

        /// Compares what the render sounds like with what the model says is audible.
        func compareSound(_ samples: [Float], frameCount: Int) -> String? {
            guard samples.count == frameCount * channelCount else {
                return "rendered \(samples.count) samples, expected \(frameCount * channelCount)"
            }
            let deClick = ModelHarness.toleranceFrames * channelCount
            switch model.audibility(marginFrames: 2 * ModelHarness.toleranceFrames) {
            case .silentInterrupted:
                if let index = samples.firstIndex(where: { $0 != 0 }) {
                    return "sample \(index) is \(samples[index]) while interrupted (holders \(model.engineHolders)): not exact silence"
                }
            case .silent:
                if let index = samples.dropFirst(deClick).firstIndex(where: { $0 != 0 }) {
                    return "sample \(index) is \(samples[index]) but the model says nothing is audible"
                }
            case .audible:
                if frameCount > 2 * ModelHarness.toleranceFrames, samples.dropFirst(deClick).allSatisfy({ $0 == 0 }) {
                    return "silent, but the model says something is audible (music \(String(describing: model.music)), voices \(model.voices))"
                }
            case .unknown:
                break
            }
            return nil
        }

        /// Session, holders, events, voices, soundtrack and groups against the model.
        func compareState() -> String? {
            let tolerance = ModelHarness.toleranceFrames
            if engine.sessionState.isActive != model.isActive {
                return "session \(engine.sessionState), model \(model.isActive ? "active" : "interrupted by \(model.engineHolders)")"
            }
            let holders = engine.interruptionHolders.map(\.rawValue)
            if holders != model.engineHolders { return "holders \(holders), model \(model.engineHolders)" }
            let raised = events.names
            if raised != model.events { return "events \(raised), model \(model.events)" }
            if engine.statistics.internalErrorCount != 0 { return "internal AL errors: \(engine.statistics.internalErrorCount)" }

            for (position, index) in addressable.enumerated() {
                guard let handle = handles[position] else { continue }
                let voice = model.voices[index]
                // A one-shot's end is noticed on the update: within the tolerance, either is right.
                let nearEnd = !voice.isLooping
                    && (voice.positionFrames > voice.lengthFrames - tolerance || (voice.framesSinceEnd ?? .max) <= tolerance)
                if nearEnd { continue }
                if engine.isPlaying(handle) != voice.state.countsAsPlaying {
                    return "isPlaying(v\(position)) \(engine.isPlaying(handle)), model \(voice.state)"
                }
                let position0 = engine.positionInFrames(of: handle)
                if voice.state == .gone {
                    if position0 != nil { return "v\(position) has position \(position0!) but the model says it is gone" }
                    continue
                }
                guard let actual = position0 else { return "v\(position) is stale, model \(voice.state) at \(voice.positionFrames)" }
                if Self.distance(actual, voice.positionFrames, length: voice.isLooping ? voice.lengthFrames : nil) > tolerance {
                    return "v\(position) at frame \(actual), model \(voice.positionFrames) (\(voice.state))"
                }
            }
            let liveVoices = model.voices.filter { $0.state != .gone }.count
            let anyNearEnd = model.voices.contains {
                !$0.isLooping && ($0.positionFrames > $0.lengthFrames - tolerance || ($0.framesSinceEnd ?? .max) <= tolerance)
            }
            if !anyNearEnd, engine.statistics.voiceCount != liveVoices {
                return "\(engine.statistics.voiceCount) voices live, model \(liveVoices)"
            }

            let musicPlaying = model.music?.state.countsAsPlaying ?? false
            if engine.isTrackPlaying() != musicPlaying {
                return "isMusicPlaying \(engine.isTrackPlaying()), model \(String(describing: model.music))"
            }
            let musicPosition = engine.musicPosition()
            if let music = model.music {
                guard let actual = musicPosition else { return "no soundtrack, model \(music)" }
                if Self.distance(actual, music.positionFrames, length: music.lengthFrames) > tolerance {
                    return "soundtrack at frame \(actual), model \(music.positionFrames) (\(music.state))"
                }
            } else if let actual = musicPosition {
                return "a soundtrack at frame \(actual), model none"
            }

            if engine.listener.position.x != model.listenerX {
                return "listener at x \(engine.listener.position.x), model \(model.listenerX): a move was lost"
            }
            if engine.listener.gain != model.listenerGain { return "listener gain \(engine.listener.gain), model \(model.listenerGain)" }
            for name in ModelStep.gainGroups {
                let gain = engine.gain(of: GroupID(name: name))
                if gain != model.groupGain(name) { return "group \(name) gain \(gain), model \(model.groupGain(name))" }
            }
            return nil
        }

        /// How far apart two frames are, around the loop when `length` is given.
        static func distance(_ a: Int, _ b: Int, length: Int?) -> Int {
            let direct = abs(a - b)
            guard let length else { return direct }
            return min(direct, length - direct)
        }
    }
}
