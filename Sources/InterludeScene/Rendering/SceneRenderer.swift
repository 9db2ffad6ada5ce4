import Foundation
import Synchronization
import Interlude

/// Renders a ``Scene`` offline through the loopback device, as docs/scenes.md specifies: events
/// take effect at frame round(t x sampleRate), the output has exactly round(duration x
/// sampleRate) frames, and the same scene always gives the same bytes. On any error nothing is
/// left behind: the WAV, log and plot are written only when the whole render succeeded.
public struct SceneRenderer {
    /// The parsed scene.
    public let scene: Scene
    /// The scene file's name, for error messages.
    public let sceneName: String

    /// Frames rendered per engine call between events; bounds memory, not results.
    static let chunkFrames = 4_800
    /// How long the engine call after a change of gain or position lasts. OpenAL Soft 1.19
    /// smooths such a change over the whole mixing call it lands in (up to an update interval,
    /// 10 ms); a short call after the event ends the smoothing within rule 1's 5 ms.
    static let smoothingSeconds = 0.0025

    public init(scene: Scene, sceneName: String) {
        self.scene = scene
        self.sceneName = sceneName
    }

    /// What a render produced besides the WAV.
    public struct Result: Sendable {
        /// One JSON object per line, as the log file holds.
        public var logLines: [String]
        /// The levels and interrupted spans, for the plot.
        public var timeline: RenderTimeline
        /// The session's events, each with the output frame it was raised at.
        public var sessionEvents: [(frame: Int, event: EngineEvent)]
    }

    /// Renders the scene to `outputPath` (16-bit PCM, or 32-bit float), and writes the log and
    /// the plot when asked. `progress` gets the fraction done, now and then.
    ///
    /// The WAV, the log and the plot appear together or not at all: each is written to a
    /// temporary file beside its destination and flushed, and only then are the three renamed
    /// into place. On any failure, or when `shouldStop` returns true between two blocks (a
    /// signal, say: it throws `CancellationError`), the temporary files are removed and the
    /// destinations are left as they were. Temporary files that an earlier render of the same
    /// destinations left when it was killed outright are removed first, once their owner is
    /// provably gone (``AtomicFile/removeAbandonedFiles(besides:)``).
    @discardableResult
    /// With `plotsStems`, the plot also shows each stem's level heard alone (``Scene/soloing(stem:)``),
    /// one more render per stem.
    public func render(to outputPath: String, sampleType: WAVSampleType, logPath: String? = nil, plotPath: String? = nil,
                       plotsStems: Bool = false,
                       progress: ((Double) -> Void)? = nil, shouldStop: () -> Bool = { false }) throws -> Result {
        let destinations = [outputPath] + [logPath, plotPath].compactMap { $0 }
        for destination in destinations { AtomicFile.removeAbandonedFiles(besides: destination) }
        let format = AudioFormat(sampleRate: scene.sampleRate, channelCount: scene.channelCount)
        let writer = try WAVFileWriter(path: outputPath, format: format, sampleType: sampleType)
        var companions: [AtomicFile] = []
        var committed: [String] = []
        do {
            var result = try render { samples in
                if shouldStop() { throw CancellationError() }
                try writer.append(samples)
            } progress: { progress?($0) }
            if plotsStems, plotPath != nil {
                result.timeline.stemLevels = try stemLevels(shouldStop: shouldStop)
            }
            if let logPath {
                companions.append(try AtomicFile.prepared(Data(result.logLines.map { $0 + "\n" }.joined().utf8), for: logPath))
            }
            if let plotPath {
                companions.append(try AtomicFile.prepared(Data(RenderPlot.svg(result.timeline).utf8), for: plotPath))
            }
            try writer.flush()
            if shouldStop() { throw CancellationError() }
            // Everything is on disk: only renames are left.
            for file in companions {
                try file.commit()
                committed.append(file.path)
            }
            try writer.finish()
            return result
        } catch {
            writer.discard()
            for file in companions { file.discard() }
            for path in committed { unlink(path) }
            throw error
        }
    }

    /// Each stem's level heard alone, over every channel: one render of the scene per stem.
    func stemLevels(shouldStop: () -> Bool) throws -> [RenderTimeline.StemLevel] {
        try scene.stemNames.map { stem in
            let solo = try SceneRenderer(scene: scene.soloing(stem: stem), sceneName: sceneName).render { _ in
                if shouldStop() { throw CancellationError() }
            }
            let channels = solo.timeline.levelsDBFS
            let levels = (0..<(channels.map(\.count).min() ?? 0)).map { window -> Float in
                let power = channels.reduce(0.0) { $0 + pow(10, Double($1[window]) / 10) } / Double(channels.count)
                return power > 0 ? max(RenderTimeline.silenceDBFS, Float(10 * log10(power))) : RenderTimeline.silenceDBFS
            }
            return RenderTimeline.StemLevel(name: stem, levelsDBFS: levels)
        }
    }

    /// Renders the scene, handing each block of interleaved float samples to `output`.
    public func render(output: (UnsafeBufferPointer<Float>) throws -> Void, progress: (Double) -> Void = { _ in }) throws -> Result {
        var configuration = SoundEngine.Configuration(output: .offline(sampleRate: scene.sampleRate, channelCount: scene.channelCount))
        configuration.hrtf = scene.hrtf
        configuration.resumePolicy = scene.policy
        configuration.distanceModel = scene.distanceModel
        configuration.resampler = scene.resampler
        configuration.seed = scene.seed
        configuration.limiter = scene.limiter
        configuration.mediaRole = nil
        configuration.loggerLabel = "Interlude.render"
        let engine = try SoundEngine(configuration: configuration)
        defer { engine.shutdown() }
        let raised = AnnotatedMutex<[EngineEvent]>([])
        engine.setEventHandler { event in raised.withLock { $0.append(event) } }

        let director = try SceneDirector(scene: scene, sceneName: sceneName, engine: engine)

        var state = RenderState(scene: scene)
        var damage = RenderDamageLog(sampleRate: scene.sampleRate)
        var block = [Float]()
        let smoothingFrames = max(1, Int((Double(scene.sampleRate) * Self.smoothingSeconds).rounded()))
        // The end of the last change's smoothing: the call that renders up to it is short.
        var smoothedFrame = 0
        func renderUntil(_ frame: Int) throws {
            while state.renderedFrames < frame {
                var count = min(Self.chunkFrames, frame - state.renderedFrames)
                if smoothedFrame > state.renderedFrames { count = min(count, smoothedFrame - state.renderedFrames) }
                block = try engine.render(frameCount: count)
                state.measure(block)
                try block.withUnsafeBufferPointer { try output($0) }
                state.renderedFrames += count
                // Damage the soundtrack stepped over is logged where its stretch plays.
                let skipped = raised.withLock { events in
                    defer { events.removeAll { if case .music(.damageSkipped) = $0 { true } else { false } } }
                    return events.filter { if case .music(.damageSkipped) = $0 { true } else { false } }
                }
                for (damageFrame, event) in damage.played(inChunkEndingAt: state.renderedFrames, chunkFrames: count,
                                                          newlyRaised: skipped, engine: engine) {
                    state.log(event, atFrame: damageFrame, voiceID: director.voiceID(of:), variantName: director.variantName(ofCue:at:),
                              musicName: director.musicName)
                }
                // Boundaries and beats the music reached while mixing, at their own frames.
                let musicTime = raised.withLock { events in
                    defer { events.removeAll { $0.isMixedMusicTime } }
                    return events.filter { $0.isMixedMusicTime }
                }
                for event in musicTime {
                    state.log(event, atFrame: state.renderedFrames, voiceID: director.voiceID(of:),
                              variantName: director.variantName(ofCue:at:), musicName: director.musicName)
                }
                progress(Double(state.renderedFrames) / Double(max(1, scene.frameCount)))
            }
        }

        for event in scene.events {
            let frame = min(event.frame, scene.frameCount)
            try renderUntil(frame)
            state.log(event: event)
            let stemIgnored = director.ignoresStem(event.action)
            let sceneRaised = try director.apply(event)
            if Self.isSmoothed(event.action) { smoothedFrame = frame + smoothingFrames }
            // A deferred `set` is logged per event, from the director, not per property as raised;
            // the commands the scene contract does not track are not logged.
            let engineRaised = raised.withLock({ events in defer { events.removeAll() }; return events }).filter { raised in
                switch raised {
                case .session(.commandDeferred(.change)): false
                case .session(.commandDeferred(let command)), .session(.commandDropped(let command)): command.sceneAction != nil
                default: true
                }
            }
            let sessionEvents = engineRaised + sceneRaised
            damage.noteMusicCommand(event.action)
            if let normalization = try director.musicNormalization(for: event) {
                state.noteMusicNormalized(normalization.loudness, targetLUFS: normalization.targetLUFS, atFrame: frame,
                                          deferred: sessionEvents.contains { sessionEvent in
                    if case .session(.commandDeferred(let command)) = sessionEvent { command.sceneAction == event.action.name } else { false }
                })
            } else if case .musicStop = event.action {
                state.dropDeferredMusicNormalized()
            }
            for sessionEvent in sessionEvents {
                if case .music(.damageSkipped) = sessionEvent {
                    damage.add(sessionEvent, engine: engine)
                    continue
                }
                state.log(sessionEvent, atFrame: frame, voiceID: director.voiceID(of:), variantName: director.variantName(ofCue:at:),
                          musicName: director.musicName)
            }
            state.logOutcome(of: event.action, raised: sessionEvents, atFrame: frame, stemIgnored: stemIgnored)
        }
        try renderUntil(scene.frameCount)
        return Result(logLines: state.logLines, timeline: state.timeline(), sessionEvents: state.sessionEvents)
    }
}

extension SceneRenderer {
    /// The actions whose change OpenAL Soft smooths: a voice's or the listener's gain or
    /// position, a group's gain, a parameter that curves follow, a snapshot's gains and
    /// low-passes. Starts, stops and pauses take effect on their frame.
    static func isSmoothed(_ action: SceneAction) -> Bool {
        switch action {
        case .set, .listener, .group, .parameter, .snapshotStart, .snapshotStop: true
        default: false
        }
    }
}

extension ListenerChange {
    /// Applies the fields this change sets.
    func apply(to listener: inout Listener) {
        if let position { listener.position = position }
        if let forward { listener.forward = forward }
        if let up { listener.up = up }
        if let gain { listener.gain = gain }
    }
}
