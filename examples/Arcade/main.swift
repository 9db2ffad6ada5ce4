// Arcade: a small playable terminal game, to hear a game's audio session at work.
//
// You are the @ on a 30 x 12 map. The arrow keys walk: each step is a footstep at your feet, and
// the listener walks with you, so the fires (F) and fountains (~) move around your head as you
// pass them. Walk over a pickup (*) and it chimes where it lay, and a chime lands on the score's
// next beat. The score is three stems of one loop: the rhythm and the pads while you explore, the
// lead fading in near a fire; a call mid-bar resumes with the stems in step. There are
// more looping emitters than the engine's real-voice budget, so the quieter, farther ones run on
// as virtual voices: the status line counts both, next to the session state and the music's
// position.
//
// Footsteps and pickups are cues: each play draws its recording, level and pitch, so no two steps
// sound alike, and the faster you walk the louder and brighter your steps (a `speed` parameter
// drives the footstep cue's curves). `p` pauses the game's mix: the "paused" snapshot muffles and
// lowers the music and the effects, and `p` again lifts it. The cues, the parameter and the
// snapshot live in a cue bank file, examples/Arcade/arcade-bank.json, watched while the game runs:
// save a change to it and the next steps follow it (a mistake keeps the previous bank, and the
// status line says why).
//
// Press `i` for an incoming call (an interruption begins: output stops, positions are saved) and
// `e` to hang up (everything resumes where it was). Ctrl-Z and `fg` do the same through the
// engine's job-control source. `q` quits and saves the state snapshot; the next launch resumes
// the soundtrack where you left it (and puts you back where you stood). Without a sound device
// it plays on OpenAL Soft's null backend, and a test drives it in tmux (ArcadeTests).
//
// Run: swift run Arcade                       (state in renders/arcade-state.json)
//      swift run Arcade --state /tmp/s.json   (another state file)
//      swift run Arcade --bank /tmp/bank.json (another cue bank)
import Foundation
import ExampleSupport
import Interlude
import InterludeScene
import Logging
import Synchronization

LoggingSystem.bootstrap { label in
    var handler = StreamLogHandler.standardError(label: label)
    handler.logLevel = .critical        // the screen is the game's; errors show on the status line
    return handler
}

let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
func asset(_ path: String) -> String { packageRoot.appendingPathComponent("assets").appendingPathComponent(path).path }

var statePath = packageRoot.appendingPathComponent("renders/arcade-state.json").path
if let index = CommandLine.arguments.firstIndex(of: "--state"), index + 1 < CommandLine.arguments.count {
    statePath = CommandLine.arguments[index + 1]
}
var bankPath = packageRoot.appendingPathComponent("examples/Arcade/arcade-bank.json").path
if let index = CommandLine.arguments.firstIndex(of: "--bank"), index + 1 < CommandLine.arguments.count {
    bankPath = CommandLine.arguments[index + 1]
}
try? FileManager.default.createDirectory(atPath: (statePath as NSString).deletingLastPathComponent,
                                         withIntermediateDirectories: true)

// The sound device, or OpenAL Soft's null backend on a machine without one.
var configuration = SoundEngine.Configuration(output: .systemDefaultOrNull)
configuration.handlesJobControl = true
configuration.statePath = statePath
configuration.realVoiceBudget = 4
configuration.resumePolicy = .alwaysResume
let engine: SoundEngine
do {
    engine = try SoundEngine(configuration: configuration)
} catch {
    FileHandle.standardError.write(Data("Arcade: \(error)\n".utf8))
    exit(1)
}
let isNullBackend = engine.currentOutput == .null

// The sound designer's layer, from the watched bank: cues with variation, a walking-speed
// parameter, a pause mix. What a reload did shows on the message line. Made before the saved
// state is restored, which puts the parameter and the snapshot back where they were.
let bankNews = Mutex<String?>(nil)
engine.setEventHandler { event in
    switch event {
    case .design(.bankReloaded):
        bankNews.withLock { $0 = "cue bank reloaded: the next plays follow it" }
    case .design(.bankReloadFailed(_, let error)):
        bankNews.withLock { $0 = "cue bank not reloaded, the previous one plays on: \(error.message)" }
    default:
        break
    }
}
let bankWatcher: CueBankWatcher
do {
    bankWatcher = try engine.watchBank(path: bankPath)
} catch {
    FileHandle.standardError.write(Data("Arcade: \(error)\n".utf8))
    exit(1)
}
guard let footstep = engine.cue(named: "footstep"), let pickup = engine.cue(named: "pickup"),
      let pausedMix = engine.mixSnapshot(named: "paused") else {
    FileHandle.standardError.write(Data("Arcade: \(bankPath) must define the cues footstep and pickup and the snapshot paused\n".utf8))
    exit(1)
}

// Resume the soundtrack (and the player's place) from the last session's snapshot; the
// emitters are the world's, so they are made fresh rather than restored.
var world = ArcadeWorld(fire: asset("ambience/fire.wav"), fountain: asset("ambience/wind.ogg"))
var header = "new game"
func formatTime(frames: Int, sampleRate: Int) -> String {
    let milliseconds = Int((Double(frames) / Double(max(sampleRate, 1)) * 1000).rounded())
    return String(format: "%d:%02d.%03d", milliseconds / 60_000, milliseconds / 1000 % 60, milliseconds % 1000)
}
var resumed = false
if FileManager.default.fileExists(atPath: statePath) {
    do {
        var snapshot = try SavedState.read(from: statePath)
        snapshot.loopingVoices = []
        try engine.restore(snapshot)
        if let track = snapshot.tracks.first(where: { $0.channel == .music }), let music = engine.music(), let duration = engine.duration(of: music) {
            header = "resumed at \(formatTime(frames: track.positionInFrames, sampleRate: duration.sampleRate))"
            resumed = true
        }
        world.placePlayer(near: snapshot.listener.position)
    } catch {
        header = "saved state unreadable: new game"
    }
}
// The score: three stems of one loop. Exploring plays the rhythm and the pads; near a fire the
// lead fades in, and away from the fires it fades out again. A pickup lands a chime on the beat.
let score = MusicTrack(name: "explore",
                       stems: ["rhythm", "pads", "lead"].map { MusicTrack.Stem(name: $0, path: asset("music/stems/\($0).ogg")) },
                       tempo: MusicTempo(bpm: 120), gains: ["lead": 0])
if !resumed {
    try engine.playMusic(score, gain: 0.5)
}
let chime = try engine.loadSound(path: asset("sfx/chime.wav"))
var isLeadIn = engine.music().flatMap { engine.gain(ofStem: "lead", of: $0) }.map { $0 > 0.5 } ?? false
if isNullBackend { header += "  (no sound device: null backend)" }

try engine.changeListener { $0.position = world.playerPosition }
for emitter in world.emitters {
    let sound = try engine.loadSound(path: emitter.soundPath)
    var parameters = VoiceParameters(position: ArcadeWorld.position(column: emitter.column, row: emitter.row),
                                     gain: emitter.gain, pitch: emitter.pitch, isLooping: true)
    parameters.referenceDistance = 2
    try engine.play(sound, parameters: parameters)
}
// A game saved with its mix paused comes back paused.
var isMixPaused = (engine.intensity(of: pausedMix) ?? 0) > 0.5
/// When the last steps were taken, for the walking speed.
var stepTimes: [ContinuousClock.Instant] = []

let terminal = Terminal()
let redrawAll = Atomic(false)
let signalSources = terminal.installSignalHandlers(cleanUp: { engine.shutdown() },
                                                   continued: { redrawAll.store(true, ordering: .relaxed) })
terminal.enterGameMode()

var message = ""
@MainActor func statusLine() -> String {
    let session: String
    switch engine.sessionState {
    case .active: session = "active"
    case .interrupted(let reason):
        // Who holds it: the game's own "i", a phone call on the desktop, sleep, Ctrl-Z, the device.
        let holders = engine.interruptionHolders.map(\.rawValue).joined(separator: ", ")
        session = "INTERRUPTED (\(reason), by \(holders))"
    }
    let statistics = engine.statistics
    var music = "music -"
    if let track = engine.music(), let frames = engine.positionInFrames(of: track), let duration = engine.duration(of: track) {
        music = "music \(formatTime(frames: frames, sampleRate: duration.sampleRate))"
        if let position = engine.musicPosition(of: track) { music += " bar \(position.bar).\(position.beat)" }
        if isLeadIn { music += " +lead" }
    }
    return "session: \(session) | voices: \(statistics.realVoiceCount) real, "
        + "\(statistics.voiceCount - statistics.realVoiceCount) virtual | \(music) | score \(world.score)"
        + " | mix \(isMixPaused ? "paused" : "normal")"
}
@MainActor func draw() {
    if redrawAll.exchange(false, ordering: .relaxed) { Terminal.write("\u{1B}[2J") }
    if let news = bankNews.withLock({ news in defer { news = nil }; return news }) { message = news }
    var lines = ["Interlude Arcade: arrows move, p pause mix, i call, e end call, Ctrl-Z/fg, q quit and save", header]
    lines += world.mapLines()
    lines.append(statusLine())
    lines.append(message)
    Terminal.write("\u{1B}[H" + lines.map { $0 + "\u{1B}[K" }.joined(separator: "\r\n"))
}

var isRunning = true
while isRunning {
    draw()
    for key in terminal.readKeys(waitingMilliseconds: 100) {
        var move: (columns: Int, rows: Int)?
        switch key {
        case .up: move = (0, -1)
        case .down: move = (0, 1)
        case .left: move = (-1, 0)
        case .right: move = (1, 0)
        case .character("i"):
            try engine.beginInterruption(reason: .call)
            message = "incoming call: the game's audio is interrupted (e to hang up)"
        case .character("e"):
            try engine.endInterruption(shouldResume: false)
            message = "call ended: everything resumes where it was"
        case .character("p"):
            isMixPaused.toggle()
            if isMixPaused { try engine.blendIn(pausedMix, fadeSeconds: 0.3) } else { try engine.blendOut(pausedMix, fadeSeconds: 0.3) }
            message = isMixPaused ? "paused: music and effects muffled and lowered (p to go on)" : "the mix is back"
        case .character("q"):
            isRunning = false
        default:
            break
        }
        guard let move else { continue }
        let result = world.step(columns: move.columns, rows: move.rows)
        guard result != .blocked else { continue }
        do {
            try engine.changeListener { $0.position = world.playerPosition }
            // Steps per second over the last second drive the footsteps' curves.
            let now = ContinuousClock.now
            stepTimes = stepTimes.filter { now - $0 < .seconds(1) } + [now]
            try engine.setParameter(Float(min(8, stepTimes.count)), of: "speed", fadeSeconds: 0.2)
            try engine.play(cue: footstep, at: world.playerPosition)
            if case .pickedUp(let column, let row) = result {
                try engine.play(cue: pickup, at: ArcadeWorld.position(column: column, row: row))
                try engine.playStinger(chime, quantize: .beat, gain: 0.6)
                message = "pickup! score \(world.score)"
            }
            if world.isNearFire(within: 3) != isLeadIn, let music = engine.music() {
                isLeadIn.toggle()
                try engine.setGain(isLeadIn ? 1 : 0, ofStem: "lead", of: music, fadeSeconds: 1.5)
            }
        } catch {
            message = "\(error)"
        }
    }
}
bankWatcher.stop()
engine.shutdown()
terminal.restore()
_ = signalSources
print("Arcade: state saved to \(statePath)")
