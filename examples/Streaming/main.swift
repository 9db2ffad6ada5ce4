// Streaming: the soundtrack as a stream, with an exact position, a fade-in and a crossfade.
//
// A streamed track is decoded a little at a time into a queue of OpenAL buffers (4 x 200 ms),
// refilled on the engine's update, so a 10-minute track never holds more than about 300 KB of
// PCM. The position is the engine's own count of frames played, exact to the frame, and kept
// through interruptions and device loss. The theme fades in, plays, then crossfades
// (equal-power) to the wind ambience.
//
// Run: swift run Streaming   (headless machines render to renders/streaming.wav)
import ExampleSupport
import Interlude

let output = try ExampleOutput(name: "streaming")
let engine = output.engine
let theme = try engine.playMusic(path: ExampleOutput.asset("music/theme.ogg"), fadeSeconds: 1)
let (frameCount, rate) = engine.duration(of: theme)!
print("theme: \(frameCount) frames at \(rate) Hz")
for _ in 0..<3 {
    try output.advance(seconds: 1)
    let frame = engine.positionInFrames(of: theme)!
    print("played \(frame) frames = \(String(format: "%.3f", Double(frame) / Double(rate))) s")
}
let wind = try engine.crossfadeMusic(toPath: ExampleOutput.asset("ambience/wind.ogg"), fadeSeconds: 2)
print("crossfading to the wind over 2 s")
try output.advance(seconds: 3)
print("now playing the wind, at frame \(engine.positionInFrames(of: wind)!)")
try output.finish()
