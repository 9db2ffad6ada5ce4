import Interlude

let engine = try SoundEngine(configuration: .init(output: .systemDefaultOrNull))
let explore = MusicTrack(name: "explore",
                         stems: [.init(name: "rhythm", path: "assets/music/stems/rhythm.ogg"),
                                 .init(name: "pads", path: "assets/music/stems/pads.ogg"),
                                 .init(name: "lead", path: "assets/music/stems/lead.ogg")],
                         tempo: MusicTempo(bpm: 120),
                         gains: ["lead": 0])
let music = try engine.playMusic(explore)
try engine.setGain(1, ofStem: "lead", of: music, fadeSeconds: 2)        // near the fire: the tune comes in

let chime = try engine.loadSound(path: "assets/sfx/chime.wav")
try engine.playStinger(chime, quantize: .beat)                          // a pickup, on the next beat

var calm = explore
calm.name = "calm"
calm.gains = ["rhythm": 0, "lead": 0]
try engine.transitionMusic(to: calm, quantize: .bar, entry: .sync, fadeSeconds: 1)
print(engine.stemNames(of: music) ?? [])
engine.shutdown()
