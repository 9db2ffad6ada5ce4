import Interlude

let torches = (0..<200).map { Vector3(Float($0), 0, -5) }
var configuration = SoundEngine.Configuration(output: .systemDefaultOrNull)
configuration.realVoiceBudget = 64
let engine = try SoundEngine(configuration: configuration)
let crackle = try engine.loadSound(path: "assets/ambience/fire.wav")
var torchVoices: [VoiceHandle] = []
for torch in torches { torchVoices.append(try engine.play(crackle, parameters: .init(position: torch, isLooping: true))) }
print(engine.statistics.realVoiceCount, "of", engine.statistics.voiceCount, "voices are real")
let movedTorches = torches.map { $0 + Vector3(0, 0, 1) }
try engine.setPositions(movedTorches, of: torchVoices)   // many voices moved under one lock
engine.shutdown()
