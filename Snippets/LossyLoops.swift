import Interlude

let engine = try SoundEngine(configuration: .init(output: .systemDefaultOrNull))
// loop.opus: 200 ms margin + 48 000-frame loop + 200 ms margin, tagged by
//   opusenc --comment LOOPSTART=9600 --comment LOOPLENGTH=48000 loop.wav loop.opus
try engine.playMusic(path: "assets/music/loop.opus")
// MP3 carries no loop tags: give the region (frames at the file's rate).
try engine.playMusic(path: "assets/music/loop.mp3", loopRegion: 9_600..<57_600)
engine.shutdown()
