import Foundation
import Interlude

/// The bookkeeping of one scene render: voice ids, the log, the level meter and the spans
/// when the session was not active.
struct RenderState {
    let scene: Scene
    var renderedFrames = 0
    var logLines: [String] = []
    /// The session's events with the output frame each was raised at.
    var sessionEvents: [(frame: Int, event: EngineEvent)] = []

    private var levelsDBFS: [[Float]]
    private var windowSums: [Double]
    private var windowFill = 0
    private let windowFrames: Int
    private var regions: [RenderTimeline.Region] = []
    private var openRegion: (startFrame: Int, kind: RenderTimeline.Region.Kind, label: String)?
    private var markers: [RenderTimeline.Marker] = []
    /// The bars' starts, from the beats logged.
    private var barSeconds: [Double] = []
    /// The scene names interruption sources: the log carries them.
    private let logsSources: Bool
    /// A `cue` was just deferred by an interruption: its cuePlayed waits for the voice to start.
    private var defersCue = false
    /// The cuePlayed lines of looping cues deferred by an interruption, by voice, logged when
    /// the voice starts.
    private var deferredCuePlays: [VoiceHandle: [(key: String, value: JSONValue)]] = [:]
    /// The musicNormalized line of a track whose start an interruption deferred: logged when
    /// the session is active again and the track starts.
    private var deferredNormalized: [(key: String, value: JSONValue)]?

    init(scene: Scene) {
        self.scene = scene
        logsSources = scene.namesInterruptionSources
        windowFrames = max(1, scene.sampleRate / 100)
        levelsDBFS = Array(repeating: [], count: scene.channelCount)
        windowSums = Array(repeating: 0, count: scene.channelCount)
    }

    // MARK: Log

    mutating func log(event: SceneEvent) {
        let frame = min(event.frame, scene.frameCount)
        write([("frame", .number(Double(frame))), ("event", .string(event.action.name)), ("do", .string(event.action.name))]
              + event.action.logFields)
        markers.append(RenderTimeline.Marker(seconds: Double(frame) / Double(scene.sampleRate), label: event.action.markerLabel,
                                              kind: event.action.markerKind))
    }

    /// Logs what applying `action` did that the engine raises no event for (versions 3 and 4):
    /// the parameter set, the snapshot started or stopped, the stem set or ignored (when
    /// `stemIgnored`). `raised` are the events it raised.
    mutating func logOutcome(of action: SceneAction, raised: [EngineEvent], atFrame frame: Int, stemIgnored: Bool = false) {
        let line: [(key: String, value: JSONValue)]
        switch action {
        case .musicStem(let stem, _, _) where stemIgnored:
            line = [("event", .string("musicStemIgnored")), ("stem", .string(stem))]
        case .musicStem(let stem, let gain, _):
            line = [("event", .string("musicStemSet")), ("stem", .string(stem)), ("gain", JSONValue(gain))]
        case .parameter(let name, let value, _):
            line = [("event", .string("parameterSet")), ("name", .string(name)), ("value", JSONValue(value))]
        case .snapshotStart(let name, _):
            line = [("event", .string("snapshotStarted")), ("name", .string(name))]
        case .snapshotStop(let name, _):
            let ignored = raised.contains { event in
                if case .design(.snapshotStopIgnored(let snapshot)) = event { return snapshot.name == name }
                return false
            }
            if ignored { return }
            line = [("event", .string("snapshotStopped")), ("name", .string(name))]
        default:
            return
        }
        write([("frame", .number(Double(frame)))] + line)
    }

    /// musicNormalized {measuredLUFS, gainDecibels} (version 3) for a track started with a
    /// loudness target: now, or, when its start was `deferred` by an interruption, when it
    /// starts. `measuredLUFS` is null for a silent track (it gets no gain).
    mutating func noteMusicNormalized(_ loudness: Loudness, targetLUFS: Double, atFrame frame: Int, deferred: Bool) {
        func hundredths(_ value: Double) -> Double { (value * 100).rounded() / 100 }
        let fields: [(key: String, value: JSONValue)] = [
            ("event", .string("musicNormalized")),
            ("measuredLUFS", loudness.isSilent ? .null : .number(hundredths(loudness.integratedLUFS))),
            ("gainDecibels", .number(hundredths(loudness.gainDecibels(toTarget: targetLUFS)))),
        ]
        if deferred {
            deferredNormalized = fields
        } else {
            deferredNormalized = nil
            write([("frame", .number(Double(frame)))] + fields)
        }
    }

    /// A music.stop during the interruption: the deferred track never starts.
    mutating func dropDeferredMusicNormalized() {
        deferredNormalized = nil
    }

    mutating func log(_ event: EngineEvent, atFrame eventFrame: Int, voiceID: (VoiceHandle) -> String?,
                      variantName: (CueID, Int) -> String?, musicName: (String) -> String) {
        // A real device's start is no part of a scene's session (offline engines raise none).
        if case .device(.outputStarted) = event { return }
        // Music time's events carry the output frame they were mixed at.
        let frame = event.mixFrame ?? eventFrame
        sessionEvents.append((frame, event))
        var fields: [(key: String, value: JSONValue)] = [("frame", .number(Double(frame)))]
        switch event {
        case .session(.began(let reason, let source)):
            fields += [("event", .string("interruptionBegan")), ("reason", .string(reason.rawValue))]
            if logsSources { fields.append(("source", .string(source.rawValue))) }
            if reason != .deviceLost { openSpan(at: frame, kind: .interruption, label: "interrupted: \(reason.rawValue)") }
        case .session(.ended(let shouldResume, _, let source)):
            fields += [("event", .string("interruptionEnded")), ("shouldResume", .bool(shouldResume))]
            if logsSources { fields.append(("source", .string(source.rawValue))) }
            closeSpan(at: frame)
        case .session(.holdAdded) where !logsSources, .session(.holdReleased) where !logsSources:
            // Version 1 has no holds: the hand-over of a device lost during an interruption
            // (see SceneDirector) is not in its log.
            return
        case .session(.holdAdded(let reason, let source)):
            fields += [("event", .string("interruptionHoldAdded")), ("reason", .string(reason.rawValue)),
                       ("source", .string(source.rawValue))]
        case .session(.holdReleased(let source)):
            fields += [("event", .string("interruptionHoldReleased")), ("source", .string(source.rawValue))]
            // A device rebuilt while other sources still hold: the loss's span gives way to an
            // interruption's.
            if source == .device { openSpan(at: frame, kind: .interruption, label: "interrupted") }
        case .device(.routeChanged(let from, let to)):
            // Live only: a scene has no audio server.
            fields += [("event", .string("routeChanged")), ("from", .string(from)), ("to", .string(to))]
        case .session(.holdKept(let source)):
            // A scene's holds are scripted, so activate ends them all; a live system source's is kept.
            fields += [("event", .string("interruptionHoldKept")), ("source", .string(source.rawValue))]
        case .session(.activated):
            fields += [("event", .string("sessionActivated"))]
            closeSpan(at: frame)
        case .session(.reactivationFailed(let message)):
            fields += [("event", .string("reactivationFailed")), ("message", .string(message))]
        case .session(.absorbed):
            fields += [("event", .string("interruptionAbsorbed"))]
        case .session(.ignored):
            fields += [("event", .string("interruptionEndIgnored"))]
        case .session(.commandDeferred(let command)):
            fields += [("event", .string("commandDeferred")), ("do", .string(command.sceneAction ?? command.description))]
            if case .playCue = command { defersCue = true }
        case .session(.commandDropped(let command)):
            fields += [("event", .string("commandDropped")), ("do", .string(command.sceneAction ?? command.description))]
        case .music(.suspended(let position)):
            fields += [("event", .string("musicSuspended")), ("positionInFrames", .number(Double(position)))]
        case .music(.resumed(let position)):
            fields += [("event", .string("musicResumed")), ("positionInFrames", .number(Double(position)))]
        case .voice(.resumed(let handle, let position)):
            if let cuePlayed = deferredCuePlays.removeValue(forKey: handle) {
                // A looping cue deferred by the interruption starts now.
                write([("frame", .number(Double(frame)))] + cuePlayed)
            }
            fields += [("event", .string("voiceResumed"))]
            if let id = voiceID(handle) { fields.append(("id", .string(id))) }
            fields.append(("positionInFrames", .number(Double(position))))
        case .device(.lost):
            fields += [("event", .string("deviceLost"))]
            closeSpan(at: frame)
            openSpan(at: frame, kind: .deviceLoss, label: "device lost")
        case .device(.rebuilt):
            fields += [("event", .string("deviceRestored"))]
            closeSpan(at: frame)
        case .design(.cuePlayed(let cue, let voice, let variantIndex, let gain, let pitch)):
            var line: [(key: String, value: JSONValue)] = [("event", .string("cuePlayed")), ("cue", .string(cue.name))]
            if let id = voiceID(voice) { line.append(("id", .string(id))) }
            line += [("variant", .string(variantName(cue, variantIndex) ?? "")), ("gain", JSONValue(gain)), ("pitch", JSONValue(pitch))]
            if defersCue {
                defersCue = false
                deferredCuePlays[voice] = line
                return
            }
            fields += line
        case .design(.cueDropped(let cue, let reason)):
            fields += [("event", .string("cueDropped")), ("cue", .string(cue.name)), ("reason", .string(reason.rawValue))]
        case .design(.snapshotStopIgnored(let snapshot)):
            fields += [("event", .string("snapshotStopIgnored")), ("name", .string(snapshot.name))]
        case .music(.damageSkipped(_, let startFrame, let skippedFrames)):
            // Version 3, every scene; the renderer gives the frame its stretch plays at.
            fields += [("event", .string("musicDamageSkipped")), ("startFrame", .number(Double(startFrame))),
                       ("skippedFrames", .number(Double(skippedFrames)))]
        case .device(.outputStarted), .music(.underrun), .music(.recovered), .music(.ended), .music(.fadeFinished), .device(.soundLost),
             .savedStateWriteFailed, .voice(.finished), .voice(.fadeFinished), .design(.bankReloaded), .design(.bankReloadFailed),
             .design(.groupFadeFinished):
            // Not one of the scene log's events; the engine's own log has the warning.
            return
        case .music(.beat(_, let track, let position, _)):
            if position.beat == 1 { barSeconds.append(Double(frame) / Double(scene.sampleRate)) }
            fields += [("event", .string("musicBeat")), ("track", .string(musicName(track))),
                       ("bar", .number(Double(position.bar))), ("beat", .number(Double(position.beat)))]
        case .music(.transitioned(let from, _, let track, let quantize, let entry, _, _, _)):
            fields += [("event", .string("musicTransitioned")), ("from", from.map { .string(musicName($0)) } ?? .null),
                       ("to", .string(musicName(track))), ("quantize", .string(quantize.rawValue)), ("entry", .string(entry.rawValue))]
        case .music(.transitionReplaced(let track)):
            fields += [("event", .string("musicTransitionReplaced")), ("to", .string(musicName(track)))]
        case .music(.transitionUnchanged(let track)):
            fields += [("event", .string("musicTransitionUnchanged")), ("track", .string(musicName(track)))]
        case .music(.quantizeUnavailable(let kind)):
            fields += [("event", .string("musicQuantizeUnavailable")), ("do", .string("music.\(kind.rawValue)"))]
        case .music(.stingerPlayed(_, let sound, _)):
            fields += [("event", .string("stingerPlayed")), ("sound", .string(musicName(sound)))]
        case .music(.stingerCancelled(let sound, _)):
            fields += [("event", .string("stingerCancelled")), ("sound", .string(musicName(sound)))]
        case .design(.snapshotStarted), .design(.snapshotStopped):
            // Logged from the scene's own event (logOutcome), at its frame.
            return
        }
        write(fields)
        switch event {
        case .session(.ended(_, let resumed, _)), .session(.activated(let resumed)):
            if resumed.music, let normalized = deferredNormalized {
                write([("frame", .number(Double(frame)))] + normalized)
                deferredNormalized = nil
            }
        default:
            break
        }
    }

    private mutating func write(_ fields: [(key: String, value: JSONValue)]) {
        logLines.append(JSONValue.object(fields).jsonText)
    }

    private mutating func openSpan(at frame: Int, kind: RenderTimeline.Region.Kind, label: String) {
        if openRegion == nil { openRegion = (frame, kind, label) }
    }

    private mutating func closeSpan(at frame: Int) {
        guard let open = openRegion else { return }
        let rate = Double(scene.sampleRate)
        regions.append(RenderTimeline.Region(startSeconds: Double(open.startFrame) / rate, endSeconds: Double(frame) / rate,
                                             kind: open.kind, label: open.label))
        openRegion = nil
    }

    // MARK: Levels

    mutating func measure(_ samples: [Float]) {
        let channelCount = scene.channelCount
        var index = 0
        while index < samples.count {
            for channel in 0..<channelCount {
                let sample = Double(samples[index + channel])
                windowSums[channel] += sample * sample
            }
            index += channelCount
            windowFill += 1
            if windowFill == windowFrames { closeWindow() }
        }
    }

    private mutating func closeWindow() {
        for channel in 0..<scene.channelCount {
            let rms = (windowSums[channel] / Double(max(1, windowFill))).squareRoot()
            let level = rms > 0 ? max(RenderTimeline.silenceDBFS, Float(20 * log10(rms))) : RenderTimeline.silenceDBFS
            levelsDBFS[channel].append(level)
            windowSums[channel] = 0
        }
        windowFill = 0
    }

    /// The timeline, with any span still open closed at the end.
    mutating func timeline() -> RenderTimeline {
        if windowFill > 0 { closeWindow() }
        closeSpan(at: scene.frameCount)
        var timeline = RenderTimeline(sampleRate: scene.sampleRate, channelCount: scene.channelCount,
                                      durationSeconds: scene.durationSeconds, windowSeconds: Double(windowFrames) / Double(scene.sampleRate),
                                      levelsDBFS: levelsDBFS, regions: regions, markers: markers)
        timeline.barSeconds = barSeconds
        return timeline
    }
}

extension EngineEvent {
    /// The output frame a music-time event was mixed at (offline), if it is one.
    var mixFrame: Int? {
        switch self {
        case .music(.beat(_, _, _, let frame)), .music(.transitioned(_, _, _, _, _, _, _, let frame)),
             .music(.stingerPlayed(_, _, let frame)), .music(.stingerCancelled(_, let frame)):
            frame
        default:
            nil
        }
    }

    /// A music-time event raised while the render mixes (a boundary or a beat reached), which
    /// the log gives at its own frame.
    var isMixedMusicTime: Bool {
        switch self {
        case .music(.beat), .music(.transitioned), .music(.stingerPlayed), .music(.stingerCancelled), .music(.transitionReplaced): true
        default: false
        }
    }
}
