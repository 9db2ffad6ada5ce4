import Foundation
import Testing
@testable import Interlude

/// The --log lines of docs/scenes.md for every session event, at the frames they belong to.
extension EngineSuites {
    @Suite struct SceneSessionLogTests {
        @Test("The scene log names every session event, with its fields, at its event's frame")
        func sessionLog() throws {
            let render = try SessionSceneRender(json: """
                { "duration": 6, "policy": "honorShouldResume",
                  "sounds": { "sweep": "\(SessionAssets.sweep)", "tone": "\(SessionAssets.tone440)", "beep": "\(SessionAssets.beep)" },
                  "events": [
                  { "at": 0, "do": "music.play", "sound": "sweep" },
                  { "at": 0.2, "do": "play", "id": "hum", "sound": "tone", "loop": true, "gain": 0.2 },
                  { "at": 1.0, "do": "interruption.begin", "reason": "call" },
                  { "at": 1.2, "do": "interruption.begin", "reason": "other" },
                  { "at": 1.25, "do": "set", "id": "hum", "gain": 0.3 },
                  { "at": 1.3, "do": "music.pause" },
                  { "at": 1.35, "do": "set", "id": "hum", "gain": 0.25 },
                  { "at": 1.4, "do": "play", "sound": "beep" },
                  { "at": 1.45, "do": "systemSound", "sound": "beep" },
                  { "at": 1.5, "do": "music.resume" },
                  { "at": 2.0, "do": "interruption.end", "shouldResume": true },
                  { "at": 2.5, "do": "interruption.end", "shouldResume": true },
                  { "at": 3.0, "do": "interruption.begin", "reason": "focusLost" },
                  { "at": 3.5, "do": "session.activate" },
                  { "at": 4.0, "do": "session.activate" },
                  { "at": 4.5, "do": "device.lost" },
                  { "at": 4.7, "do": "session.activate" },
                  { "at": 5.0, "do": "device.restored" } ] }
                """)
            let f = render.frame
            let lines = render.sessionLines
            func events(at seconds: Double) -> [String] {
                lines.filter { $0.frame == f(seconds) }.map(\.event).sorted()
            }
            func field(_ event: String, at seconds: Double, _ key: String) -> Any? {
                lines.first { $0.frame == f(seconds) && $0.event == event }?.fields[key]
            }
            #expect(events(at: 1.0) == ["interruptionBegan", "musicSuspended"])
            #expect(field("interruptionBegan", at: 1.0, "reason") as? String == "call")
            let suspendedAt = try #require(field("musicSuspended", at: 1.0, "positionInFrames") as? Int)
            // 1 s of output is 44100 frames of the 44.1 kHz track; measured 44097 (OpenAL start latency).
            #expect(abs(suspendedAt - 44_100) <= 44, "suspended at \(suspendedAt)")
            #expect(events(at: 1.2) == ["interruptionAbsorbed"])
            // One line per deferred `set`, though the engine reports the voice's gain change once.
            for seconds in [1.25, 1.35] {
                #expect(events(at: seconds) == ["commandDeferred"])
                #expect(field("commandDeferred", at: seconds, "do") as? String == "set")
            }
            #expect(events(at: 1.3) == ["commandDeferred"])
            #expect(field("commandDeferred", at: 1.3, "do") as? String == "music.pause")
            #expect(events(at: 1.4) == ["commandDropped"])
            #expect(field("commandDropped", at: 1.4, "do") as? String == "play")
            #expect(field("commandDropped", at: 1.45, "do") as? String == "systemSound")
            #expect(field("commandDeferred", at: 1.5, "do") as? String == "music.resume")
            #expect(events(at: 2.0) == ["interruptionEnded", "musicResumed", "voiceResumed"])
            #expect(field("interruptionEnded", at: 2.0, "shouldResume") as? Bool == true)
            #expect(field("musicResumed", at: 2.0, "positionInFrames") as? Int == suspendedAt)
            #expect(field("voiceResumed", at: 2.0, "id") as? String == "hum")
            #expect(events(at: 2.5) == ["interruptionEndIgnored"])
            #expect(events(at: 3.0) == ["interruptionBegan", "musicSuspended"])
            #expect(field("interruptionBegan", at: 3.0, "reason") as? String == "focusLost")
            #expect(events(at: 3.5) == ["musicResumed", "sessionActivated", "voiceResumed"])
            #expect(events(at: 4.0) == ["interruptionEndIgnored"])
            #expect(events(at: 4.5) == ["deviceLost", "interruptionBegan", "musicSuspended"])
            #expect(field("interruptionBegan", at: 4.5, "reason") as? String == "deviceLost")
            #expect(events(at: 4.7) == ["interruptionEndIgnored"])
            #expect(events(at: 5.0) == ["deviceRestored", "interruptionEnded", "musicResumed", "voiceResumed"])
            #expect(field("interruptionEnded", at: 5.0, "shouldResume") as? Bool == true)
            // Nothing else in the log but played events.
            let known: Set<Double> = [1.0, 1.2, 1.25, 1.3, 1.35, 1.4, 1.45, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 4.7, 5.0]
            #expect(lines.allSatisfy { line in known.contains { f($0) == line.frame } })
            // And the audio agrees: silence exactly over each span, sound after.
            for (start, end) in [(1.0, 2.0), (3.0, 3.5), (4.5, 5.0)] {
                #expect(render.isExactlySilent(f(start)..<f(end)), "\(start)..<\(end)")
                #expect(render.rms(f(end) + 240..<f(end) + 4_800) > 0.05, "after \(end)")
            }
            // Every played event is logged too, with `do`.
            #expect(render.log.filter { $0["do"] != nil && $0["event"] as? String == $0["do"] as? String }.count == 18)
        }
    }
}
