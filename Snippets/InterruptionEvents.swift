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
let events = engine.events()                        // or as an AsyncStream, until shutdown
try engine.beginInterruption(reason: .call)         // from any thread: a launcher's voice call
try engine.endInterruption(shouldResume: false)     // a game resumes anyway (alwaysResume)
engine.shutdown()
for await event in events { print(event) }
