import Interlude

let engine = try SoundEngine(configuration: .init(output: .systemDefaultOrNull))
engine.setEventHandler { event in
    switch event {
    case .session(.began(let reason, let source)): print("audio interrupted by \(source): \(reason)")
    case .session(.ended(_, let resumed, _)): print("resumed music: \(resumed.music)")
    case .device(.lost): print("audio device gone; retrying")
    default: break
    }
}
try engine.beginInterruption(reason: .call)         // from any thread: a launcher's voice call
try engine.endInterruption(shouldResume: false)     // a game resumes anyway (alwaysResume)
for await event in engine.events() { print(event) } // or as an AsyncStream
