import Foundation
import Testing
@_spi(Tools) @testable import Interlude

/// Several sources hold the session at once (the scene contract's rules 8 to 11): it is silent
/// while any holds it, and resumes, on the frame it stopped, only when the last lets go. A scene
/// that names no source renders as version 1 did.
extension EngineSuites {
    @Suite struct InterruptionSourceTests {
        @Test("A game pause during a call: silent until both let go; the last end decides; the log names the sources")
        func overlappingSources() throws {
            let render = try SessionSceneRender(json: """
                { "duration": 4, "policy": "honorShouldResume", "sounds": { "sweep": "\(SessionAssets.sweep)" }, "events": [
                  { "at": 0, "do": "music.play", "sound": "sweep" },
                  { "at": 1.0, "do": "interruption.begin", "reason": "call", "source": "phone" },
                  { "at": 1.5, "do": "interruption.begin", "reason": "focusLost" },
                  { "at": 1.7, "do": "interruption.begin", "reason": "call", "source": "phone" },
                  { "at": 2.0, "do": "interruption.end", "shouldResume": true, "source": "phone" },
                  { "at": 2.2, "do": "interruption.end", "shouldResume": true, "source": "nobody" },
                  { "at": 2.5, "do": "interruption.end", "shouldResume": true } ] }
                """)
            let f = render.frame
            #expect(render.isExactlySilent(f(1.0)..<f(2.5)), "silent while any source holds")
            #expect(render.rms(f(2.51)..<f(3.0)) > 0.2, "the soundtrack resumes when the last lets go")
            let lines = render.sessionLines
            func line(_ event: String) -> [String: Any]? { lines.first { $0.event == event }?.fields }
            #expect(line("interruptionBegan")?["source"] as? String == "phone")
            #expect(line("interruptionBegan")?["reason"] as? String == "call")
            #expect(line("interruptionHoldAdded")?["source"] as? String == "game")
            #expect(line("interruptionHoldAdded")?["reason"] as? String == "focusLost")
            #expect(lines.contains { $0.event == "interruptionAbsorbed" && $0.frame == f(1.7) })
            #expect(line("interruptionHoldReleased")?["source"] as? String == "phone")
            #expect(lines.contains { $0.event == "interruptionEndIgnored" && $0.frame == f(2.2) })
            #expect(line("interruptionEnded")?["source"] as? String == "game")
            let suspended = line("musicSuspended")?["positionInFrames"] as? Int
            #expect(suspended != nil && line("musicResumed")?["positionInFrames"] as? Int == suspended)
        }

        @Test("A device restored during a call stays silent until the call ends; a call ending during the loss changes nothing")
        func deviceLossIsOneMoreHolder() throws {
            let render = try SessionSceneRender(json: """
                { "duration": 5, "sounds": { "sweep": "\(SessionAssets.sweep)" }, "events": [
                  { "at": 0, "do": "music.play", "sound": "sweep" },
                  { "at": 0.5, "do": "interruption.begin", "reason": "call", "source": "phone" },
                  { "at": 1.0, "do": "device.lost" },
                  { "at": 1.5, "do": "device.restored" },
                  { "at": 2.5, "do": "interruption.end", "source": "phone" },
                  { "at": 3.0, "do": "interruption.begin", "reason": "call", "source": "phone" },
                  { "at": 3.2, "do": "device.lost" },
                  { "at": 3.4, "do": "interruption.end", "source": "phone" },
                  { "at": 4.0, "do": "device.restored" } ] }
                """)
            let f = render.frame
            #expect(render.isExactlySilent(f(0.5)..<f(2.5)), "restored while the call holds: still silent")
            #expect(render.rms(f(2.51)..<f(3.0)) > 0.2)
            #expect(render.isExactlySilent(f(3.0)..<f(4.0)), "the call ended while the device was lost: still silent")
            #expect(render.rms(f(4.01)..<f(4.5)) > 0.2)
            let lines = render.sessionLines
            #expect(lines.contains { $0.event == "interruptionHoldAdded" && $0.frame == f(1.0) && $0.fields["source"] as? String == "device" })
            #expect(lines.contains { $0.event == "interruptionHoldReleased" && $0.frame == f(1.5) })
            #expect(lines.contains { $0.event == "interruptionEnded" && $0.frame == f(2.5) && $0.fields["source"] as? String == "phone" })
            #expect(lines.contains { $0.event == "interruptionHoldReleased" && $0.frame == f(3.4) && $0.fields["source"] as? String == "phone" })
            #expect(lines.contains { $0.event == "interruptionEnded" && $0.frame == f(4.0) && $0.fields["source"] as? String == "device" })
        }

        @Test("Without a source key, a scene keeps version 1's device loss: the restored device resumes during a call, and no holds are logged")
        func versionOneSceneKeepsItsDeviceLoss() throws {
            // The scene of deviceLossIsOneMoreHolder, without `source`: as version 1 rendered it
            // (checked against the version 1 renderer, byte for byte), a loss during the game's
            // interruption takes its place, and a begin during a loss is absorbed.
            let render = try SessionSceneRender(json: """
                { "duration": 5, "sounds": { "sweep": "\(SessionAssets.sweep)" }, "events": [
                  { "at": 0, "do": "music.play", "sound": "sweep" },
                  { "at": 0.5, "do": "interruption.begin", "reason": "call" },
                  { "at": 1.0, "do": "device.lost" },
                  { "at": 1.5, "do": "device.restored" },
                  { "at": 2.5, "do": "interruption.end" },
                  { "at": 3.0, "do": "device.lost" },
                  { "at": 3.2, "do": "interruption.begin", "reason": "call" },
                  { "at": 4.0, "do": "device.restored" },
                  { "at": 4.4, "do": "interruption.end" } ] }
                """)
            let f = render.frame
            #expect(render.isExactlySilent(f(0.5)..<f(1.5)))
            #expect(render.rms(f(1.51)..<f(2.5)) > 0.2, "the restored device resumes, though the call never ended")
            #expect(render.isExactlySilent(f(3.0)..<f(4.0)))
            #expect(render.rms(f(4.01)..<f(5.0)) > 0.2, "the begin during the loss was absorbed")
            let lines = render.sessionLines
            func events(at seconds: Double) -> [String] {
                lines.filter { $0.frame == f(seconds) }.map(\.event).sorted()
            }
            #expect(events(at: 1.0) == ["deviceLost"])
            #expect(events(at: 1.5) == ["deviceRestored", "interruptionEnded", "musicResumed"])
            #expect(events(at: 2.5) == ["interruptionEndIgnored"])
            #expect(events(at: 3.2) == ["interruptionAbsorbed"])
            #expect(events(at: 4.0) == ["deviceRestored", "interruptionEnded", "musicResumed"])
            #expect(events(at: 4.4) == ["interruptionEndIgnored"])
            #expect(lines.allSatisfy { $0.fields["source"] == nil }, "no source in a version 1 log")
            #expect(!lines.contains { $0.event.hasPrefix("interruptionHold") })
        }

        @Test("activate ends every hold the game gave, but not a device loss; the API names the holders")
        func activateAndHolders() throws {
            let rig = try SessionRig()
            try rig.engine.playMusic(path: SessionAssets.sweep)
            try rig.render(seconds: 0.3)
            try rig.engine.beginInterruption(reason: .call, source: InterruptionSource("phone"))
            try rig.engine.beginInterruption(reason: .focusLost)
            #expect(rig.engine.interruptionHolders == [InterruptionSource("phone"), .game])
            try rig.engine.activate()
            #expect(rig.engine.sessionState == .active && rig.engine.interruptionHolders.isEmpty)
            #expect(rig.rms(try rig.render(seconds: 0.2)) > 0.2)
            try rig.engine.beginInterruption(reason: .call)
            rig.engine.disconnectDevice()
            try rig.engine.activate()
            #expect(rig.engine.interruptionHolders == [.device])
            #expect(rig.isExactlySilent(try rig.render(seconds: 0.2)))
            try rig.engine.reconnectDevice()
            #expect(rig.engine.sessionState == .active)
            #expect(rig.rms(try rig.render(seconds: 0.2)) > 0.2)
            #expect(throws: InterludeError.self) { try rig.engine.beginInterruption(source: InterruptionSource("")) }
        }

        @Test("activate keeps the hold of a system source that still observes its condition (a phone stream), and says so")
        func activateKeepsAnObservedHold() throws {
            let rig = try SessionRig()
            try rig.engine.playMusic(path: SessionAssets.sweep)
            try rig.render(seconds: 0.3)
            // What the audio server's phone-stream watcher does when a phone stream starts.
            rig.engine.beginOwnInterruption(reason: .call, source: .phoneStream, outlivesActivation: true)
            try rig.engine.beginInterruption(reason: .focusLost)
            _ = rig.takeEvents()
            try rig.engine.activate()
            #expect(rig.takeEvents() == [.session(.holdReleased(source: .game)), .session(.holdKept(source: .phoneStream))])
            #expect(rig.engine.interruptionHolders == [.phoneStream])
            #expect(rig.engine.sessionState == .interrupted(reason: .call))
            #expect(rig.isExactlySilent(try rig.render(seconds: 0.2)), "activate during the call: still silent")
            // The phone stream ends: its own end resumes.
            try rig.engine.endInterruption(shouldResume: true, source: .phoneStream)
            #expect(rig.engine.sessionState == .active)
            #expect(rig.rms(try rig.render(seconds: 0.2)) > 0.2)
            // Held alone: activate changes nothing but the event.
            rig.engine.beginOwnInterruption(reason: .call, source: .phoneStream, outlivesActivation: true)
            _ = rig.takeEvents()
            try rig.engine.activate()
            #expect(rig.takeEvents() == [.session(.holdKept(source: .phoneStream))])
            #expect(rig.isExactlySilent(try rig.render(seconds: 0.2)))
        }

        @Test("the audio server's settings: off offline unless asked; an empty role or a bad ducking is refused by name")
        func audioServerSettings() throws {
            var settings = SoundEngine.Configuration.AudioServer()
            #expect(settings.isOn(for: .systemDefault) && settings.isOn(for: .null) && !settings.isOn(for: .offline()))
            settings.isEnabled = false
            #expect(!settings.isOn(for: .systemDefault))
            var configuration = SoundEngine.Configuration(output: .offline())
            configuration.audioServer.interruptingRoles = ["phone", ""]
            let error = try #require(throws: InterludeError.self) { try SoundEngine(configuration: configuration) }
            #expect(error.code == .invalidArgument && error.message.contains("interruptingRoles"))
            configuration.audioServer.interruptingRoles = ["phone"]
            configuration.audioServer.callResponse = .duck(byDecibels: -.infinity)
            let duck = try #require(throws: InterludeError.self) { try SoundEngine(configuration: configuration) }
            #expect(duck.code == .invalidArgument && duck.message.contains("callResponse"))
        }
    }
}
