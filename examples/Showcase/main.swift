// Showcase: what Interlude does that raw OpenAL, SFML Audio or SoLoud leave to you, in 12 seconds.
//
// A soundtrack fades in, a fire crackles to the right, wind blows, and a tone orbits the
// listener. A "bell" cue rings twice, each play drawing its recording, level and pitch, louder as
// a "danger" parameter rises. Then a scripted incoming call interrupts the game: the engine saves every voice's and
// the soundtrack's position, stops output at once and sets the OpenAL context to NULL. During the
// call the game pauses and resumes the music (tracked, not played). When the call ends the
// context is restored and everything resumes exactly where it was. Then the output device is
// lost: every AL object is torn down, and a new device is built from the engine's own state, the
// soundtrack again resuming on the frame it had reached. A "muffled" mix snapshot then lowers and
// darkens the music and the effects for a second.
//
// The timeline is examples/scenes/showcase.json, a scene file (docs/scenes.md). With a sound device
// it plays live; on a headless machine it renders the same timeline offline to a WAV file and an
// SVG plot, and says where it wrote them. Either way it prints the session's timeline, each
// interruption with the source that holds it, the same lines live and headless.
//
// Run: swift run Showcase            (or `make demo`)
//      swift run Showcase --offline  (always render)
//      swift run Showcase --live     (play in real time even on OpenAL Soft's null backend)
import Foundation
import ExampleSupport
import Interlude
import InterludeScene
import Logging
import Synchronization

LoggingSystem.bootstrap { label in
    var handler = StreamLogHandler.standardError(label: label)
    handler.logLevel = .error
    return handler
}

let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let scenePath = packageRoot.appendingPathComponent("examples/scenes/showcase.json").path
let outputFolder = packageRoot.appendingPathComponent("renders")
let scene: Scene
do {
    scene = try SceneParser.parse(fileAt: scenePath)
} catch {
    FileHandle.standardError.write(Data("showcase: \(error)\n".utf8))
    exit(1)
}

/// Prints the session's events as a timeline a person can follow.
final class TimelinePrinter: Sendable {
    private let musicSampleRate = Mutex<Int>(44_100)
    /// Each cue's variants, by cue name: a cue play names the one it drew.
    private let cueVariants: [String: [String]]

    init(scene: Scene) {
        cueVariants = scene.cues.mapValues(\.variants)
    }

    func setMusicSampleRate(_ rate: Int) { musicSampleRate.withLock { $0 = rate } }

    func describe(_ event: EngineEvent) -> String? {
        let rate = musicSampleRate.withLock { $0 }
        func clock(_ frames: Int) -> String {
            let seconds = Double(frames) / Double(rate)
            return String(format: "%d:%06.3f", Int(seconds) / 60, seconds.truncatingRemainder(dividingBy: 60))
        }
        switch event {
        case .session(.began(let reason, let source)):
            return "interruption began (\(reason), by \(source)): state saved, output stopped, context NULL"
        case .session(.holdAdded(let reason, let source)):
            return "  \(source) holds the session too (\(reason)): it stays silent until both let go"
        case .session(.holdReleased(let source)):
            return "  \(source) let go; another source still holds the session"
        case .device(.routeChanged(let from, let to)):
            return "output moved from \(from) to \(to), everything kept"
        case .session(.holdKept(let source)):
            return "  activate: \(source) still holds the session (its condition lasts)"
        case .music(.suspended(let frame)):
            return "  soundtrack held at \(clock(frame))"
        case .session(.commandDeferred(.change)):
            return nil
        case .session(.commandDeferred(let command)):
            return "  \(command.sceneAction ?? command.description) during the interruption: tracked, applied at the end"
        case .session(.commandDropped(let command)):
            return "  \(command.sceneAction ?? command.description) during the interruption: dropped"
        case .music(.resumed(let frame)):
            return "ended: context restored, soundtrack resumed at \(clock(frame))"
        case .session(.ended(let shouldResume, let resumed, _)):
            return "  interruption over (shouldResume \(shouldResume)): music \(resumed.music ? "resumed" : "silent"), \(resumed.voiceCount) voices resumed"
        case .device(.lost):
            return "device lost: every AL object torn down, positions kept by the engine"
        case .device(.rebuilt):
            return "device rebuilt: new device and context, sounds re-uploaded, voices and streams re-created"
        case .session(.reactivationFailed(let message)):
            return "could not restore the context (\(message)): still interrupted"
        case .music(.damageSkipped(let path, let startFrame, let skippedFrames)):
            return "soundtrack \(path) damaged at \(clock(startFrame)): \(skippedFrames) frames skipped as silence, playing on"
        case .music(.underrun(let path, let frame)):
            return "  \(path) ran dry at \(clock(frame)): its reads are behind"
        case .music(.recovered(let path, let frame)):
            return "  \(path) plays on from \(clock(frame))"
        case .device(.soundLost(_, let reason)):
            return "sound lost on the new device: \(reason)"
        case .savedStateWriteFailed(_, let error):
            return "state not saved (\(error.message)): the previous snapshot is kept, playing on"
        case .design(.cuePlayed(let cue, _, let variantIndex, let gain, let pitch)):
            let variant = cueVariants[cue.name]?[variantIndex] ?? "variant \(variantIndex)"
            return String(format: "cue %@ drew %@ at gain %.2f, pitch %.2f", cue.name, variant, gain, pitch)
        case .design(.snapshotStarted(let snapshot, let fadeSeconds)):
            return String(format: "mix snapshot %@ fades in over %.1f s: music and effects muffled", snapshot.name, fadeSeconds)
        case .design(.snapshotStopped(let snapshot, let fadeSeconds)):
            return String(format: "mix snapshot %@ fades out over %.1f s", snapshot.name, fadeSeconds)
        case .music(.transitioned(let from, _, let track, let quantize, _, _, _, _)):
            return "music changed from \(from ?? "silence") to \(track) on the \(quantize.rawValue)"
        case .music(.stingerPlayed(_, let sound, _)):
            return "  stinger \(sound) on the beat"
        case .session(.activated), .session(.absorbed), .session(.ignored), .voice(.resumed), .voice(.finished), .voice(.fadeFinished),
             .music(.beat), .music(.transitionReplaced), .music(.transitionUnchanged), .music(.quantizeUnavailable),
             .music(.stingerCancelled),
             .device(.outputStarted),
             .music(.ended), .music(.fadeFinished),
             .design(.cueDropped), .design(.snapshotStopIgnored), .design(.bankReloaded), .design(.bankReloadFailed),
             .design(.groupFadeFinished):
            return nil
        }
    }
}

let printer = TimelinePrinter(scene: scene)
let forceOffline = CommandLine.arguments.contains("--offline")
let started = Date()
func stamp() -> String { String(format: "[%5.2f s]", Date().timeIntervalSince(started)) }

// The system default, or the null backend on a headless machine: there a render to listen to
// later is more use than real-time silence, unless --live asks for the real-time run.
// The scene's seed, so that the cue plays draw live what they draw in the render.
var liveConfiguration = SoundEngine.Configuration(output: .systemDefaultOrNull)
liveConfiguration.seed = scene.seed
let liveEngine = forceOffline ? nil : try? SoundEngine(configuration: liveConfiguration)
if let engine = liveEngine, engine.currentOutput != .null || CommandLine.arguments.contains("--live") {
    print("Showcase: playing live on \(engine.statistics.deviceName ?? "the default device") for \(Int(scene.durationSeconds)) s.")
    engine.setEventHandler { event in
        if let line = printer.describe(event) { print("\(stamp()) \(line)") }
    }
    do {
        let director = try SceneDirector(scene: scene, sceneName: scenePath, engine: engine)
        for event in scene.events {
            let wait = event.atSeconds - Date().timeIntervalSince(started)
            if wait > 0 { Thread.sleep(forTimeInterval: wait) }
            try director.apply(event)
            if case .musicPlay = event.action, let music = engine.music(), let rate = engine.duration(of: music)?.sampleRate { printer.setMusicSampleRate(rate) }
        }
        let remaining = scene.durationSeconds - Date().timeIntervalSince(started)
        if remaining > 0 { Thread.sleep(forTimeInterval: remaining) }
        engine.shutdown()
        print("Showcase: done.")
    } catch {
        FileHandle.standardError.write(Data("showcase: \(error)\n".utf8))
        exit(1)
    }
} else {
    liveEngine?.shutdown()
    print(forceOffline ? "Showcase: rendering offline (--offline)." :
        "Showcase: no sound device opened (a headless machine), so the same timeline is rendered offline.")
    do {
        try FileManager.default.createDirectory(at: outputFolder, withIntermediateDirectories: true)
        let wavPath = outputFolder.appendingPathComponent("showcase.wav").path
        let plotPath = outputFolder.appendingPathComponent("showcase.svg").path
        let logPath = outputFolder.appendingPathComponent("showcase.jsonl").path
        let result = try SceneRenderer(scene: scene, sceneName: scenePath)
            .render(to: wavPath, sampleType: .int16, logPath: logPath, plotPath: plotPath)
        printer.setMusicSampleRate(44_100)
        for (frame, event) in result.sessionEvents {
            if let text = printer.describe(event) {
                print(String(format: "[%5.2f s] ", Double(frame) / Double(scene.sampleRate)) + text)
            }
        }
        print("Wrote \(wavPath) (\(Int(scene.durationSeconds)) s, \(scene.sampleRate) Hz stereo),")
        print("      \(plotPath) (levels in dBFS over time, interruption and device loss shaded),")
        print("  and \(logPath) (the session log).")
    } catch {
        FileHandle.standardError.write(Data("showcase: \(error)\n".utf8))
        exit(1)
    }
}
