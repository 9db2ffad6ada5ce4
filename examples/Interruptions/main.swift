// Interruptions: what a game gets when something else takes the audio, and gives it back.
//
// When an interruption begins (an incoming call in a launcher, say) the engine records every
// voice's and the soundtrack's position, stops output, sets the OpenAL context to NULL and tells
// the game. Commands given meanwhile are tracked, not played. When it ends, the context is
// restored and a game (no playback controls: the alwaysResume policy) always resumes what was
// playing, from the exact frame it stopped on, even though the end said shouldResume = false.
//
// Run: swift run Interruptions   (headless machines render to renders/interruptions.wav)
import ExampleSupport
import Interlude

let output = try ExampleOutput(name: "interruptions")
let engine = output.engine
engine.setEventHandler { event in
    if case .session(let session) = event { print("  event: \(session)") }
}

let theme = try engine.playMusic(path: ExampleOutput.asset("music/theme.ogg"))
try output.advance(seconds: 2)
print("playing at frame \(engine.positionInFrames(of: theme)!)")

print("incoming call: beginInterruption(reason: .call)")
try engine.beginInterruption(reason: .call)
print("session: \(engine.sessionState)")
let quiet = try output.advance(seconds: 1)
if !output.isLive { print("during the call, the output's loudest sample is \(quiet.map(abs).max() ?? 0)") }

print("the call ends: endInterruption(shouldResume: false)")
try engine.endInterruption(shouldResume: false)
print("resumed at frame \(engine.positionInFrames(of: theme)!), session: \(engine.sessionState)")
try output.advance(seconds: 1)
try output.finish()
