import Foundation
import Interlude
import InterludeScene

/// The game's audio, the same live and offline: a campfire, the soundtrack, footsteps from a
/// cue as the player walks up to the fire, a pause menu that muffles the effects, and a call.
/// `advance` lets the time pass: sleeping live, rendering offline.
func playScene(on engine: SoundEngine, advance: (Double) throws -> Void) throws {
    let fire = try engine.loadSound(path: "assets/ambience/fire.wav")
    let step = try engine.loadSound(path: "assets/sfx/footstep.wav")
    let footsteps = try engine.makeCue(named: "footsteps", CueDefinition(variants: [step]))
    let paused = try engine.makeMixSnapshot(named: "paused", groups: [.sfx: GroupMix(gain: 0.5, lowPassGainHF: 0.2)])

    try engine.play(fire, parameters: .init(position: Vector3(3, 0, 0), isLooping: true))
    try engine.playMusic(path: "assets/music/theme.ogg", fadeSeconds: 1)
    for x: Float in [0, 0.5, 1, 1.5] {
        try engine.changeListener { $0.position = Vector3(x, 0, 0) }
        try engine.play(cue: footsteps, at: Vector3(x, -1, 0))
        try advance(0.5)
    }
    try engine.blendIn(paused, fadeSeconds: 0.2)    // the pause menu opens...
    try advance(0.5)
    try engine.blendOut(paused, fadeSeconds: 0.2)   // ...and closes
    try engine.beginInterruption(reason: .call)     // the launcher says a call came in
    try advance(0.5)
    try engine.endInterruption(shouldResume: true)  // the soundtrack goes on where it stopped
    try advance(0.5)
}

// Live: the default output, or the null backend on a machine without sound.
let engine = try SoundEngine(configuration: .init(output: .systemDefaultOrNull))
let events = engine.events()
try playScene(on: engine) { Thread.sleep(forTimeInterval: $0) }
engine.shutdown()
for await event in events {                         // what happened, then the stream ends
    if case .session(.began(let reason, _)) = event { print("interrupted: \(reason)") }
    if case .session(.ended(_, let resumed, _)) = event { print("the soundtrack resumed: \(resumed.music)") }
}

// Offline: the same scene, rendered as fast as the machine goes, into a WAV file.
let format = AudioFormat(sampleRate: 48_000, channelCount: 2)
let offline = try SoundEngine(configuration: .init(output: .offline(sampleRate: format.sampleRate, channelCount: format.channelCount)))
let path = FileManager.default.temporaryDirectory.appendingPathComponent("first-game.wav").path
let wav = try WAVFileWriter(path: path, format: format, sampleType: .int16)
try playScene(on: offline) { seconds in
    try wav.append(offline.render(frameCount: Int(seconds * Double(format.sampleRate))))
}
try wav.finish()
offline.shutdown()
print("rendered \(wav.frameCount) frames")
