import Interlude

/// Where a render hears the damage its soundtrack stepped over, for the log's
/// musicDamageSkipped {startFrame, skippedFrames} (version 3, every scene): at the output frame
/// where the skipped stretch would have played.
///
/// The engine raises ``MusicEvent/damageSkipped(path:startFrame:skippedFrames:)`` when
/// its update queues the damaged chunk, which is ahead of what plays. So each stretch waits
/// here until a render chunk's track position passes its start frame; within a chunk the track
/// plays on steadily (scene events fall between chunks), so the frame is found from the
/// positions at the chunk's two ends, across a loop's wrap too. The position is read only while
/// some damage waits: a scene without damage renders exactly as before.
struct RenderDamageLog {
    private struct Stretch {
        var event: EngineEvent
        var startFrame: Int
    }

    private let sampleRate: Int
    private var waiting: [Stretch] = []
    /// The track's position at the end of the last chunk, while some damage waits.
    private var lastPosition: Int?

    init(sampleRate: Int) {
        self.sampleRate = sampleRate
    }

    /// Damage raised by a scene event's command: it plays from the next chunk on.
    mutating func add(_ event: EngineEvent, engine: SoundEngine) {
        guard case .music(.damageSkipped(_, let startFrame, _)) = event else { return }
        if lastPosition == nil { lastPosition = engine.music().flatMap { engine.positionInFrames(of: $0) } }
        waiting.append(Stretch(event: event, startFrame: startFrame))
    }

    /// A music event replaced or stopped the track: the damage still waiting was the old one's.
    mutating func noteMusicCommand(_ action: SceneAction) {
        switch action {
        case .musicPlay, .musicCrossfade, .musicStop:
            waiting = []
            lastPosition = nil
        default:
            break
        }
    }

    /// After a chunk of `chunkFrames` frames ending at output frame `end`, with the damage
    /// events the engine raised while rendering it: the events of the stretches heard in it,
    /// each with its output frame, in frame order.
    mutating func played(inChunkEndingAt end: Int, chunkFrames: Int, newlyRaised: [EngineEvent],
                         engine: SoundEngine) -> [(frame: Int, event: EngineEvent)] {
        let raised = newlyRaised.compactMap { event -> Stretch? in
            guard case .music(.damageSkipped(_, let startFrame, _)) = event else { return nil }
            return Stretch(event: event, startFrame: startFrame)
        }
        guard !waiting.isEmpty || !raised.isEmpty else { return [] }
        guard let music = engine.music(), let position = engine.positionInFrames(of: music),
              let trackRate = engine.duration(of: music)?.sampleRate else {
            waiting = []
            lastPosition = nil
            return []
        }
        let outputFramesPerTrackFrame = Double(sampleRate) / Double(trackRate)
        func outputFrames(_ trackFrames: Int) -> Int { Int((Double(trackFrames) * outputFramesPerTrackFrame).rounded()) }
        let start = end - chunkFrames
        var heard: [(frame: Int, event: EngineEvent)] = []
        var stillWaiting: [Stretch] = []
        func hear(_ stretch: Stretch, at frame: Int) {
            heard.append((min(max(frame, start), end - 1), stretch.event))
        }
        for stretch in waiting {
            let before = lastPosition ?? position
            let target = stretch.startFrame
            if target >= before && (position < before || target < position) {
                hear(stretch, at: start + outputFrames(target - before))
            } else if position < before && target < position {
                hear(stretch, at: end - outputFrames(position - target))
            } else {
                stillWaiting.append(stretch)
            }
        }
        for stretch in raised {
            // Raised while this chunk rendered: already heard in it, or still ahead.
            if stretch.startFrame < position && outputFrames(position - stretch.startFrame) <= chunkFrames {
                hear(stretch, at: end - outputFrames(position - stretch.startFrame))
            } else {
                stillWaiting.append(stretch)
            }
        }
        waiting = stillWaiting
        lastPosition = waiting.isEmpty ? nil : position
        return heard.sorted { $0.frame < $1.frame }
    }
}
