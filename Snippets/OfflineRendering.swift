import Interlude

let engine = try SoundEngine(configuration: .init(output: .offline(sampleRate: 48_000, channelCount: 2)))
let beep = try engine.loadSound(path: "assets/sfx/beep.wav")
try engine.play(beep, parameters: .init(position: Vector3(4, 0, 0)))
let frames = try engine.render(frameCount: 4_800)      // 0.1 s, the beep on the right
try engine.beginInterruption(reason: .focusLost)
let silent = try engine.render(frameCount: 4_800)      // exactly zero while interrupted
print(frames.count, silent.allSatisfy { $0 == 0 })
engine.shutdown()
