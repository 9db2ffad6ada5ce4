import Foundation
import Testing
@testable import Interlude
@testable import InterludeScene

extension EngineSuites {
    /// The scene-file extensions for effects: `reverbZones`, and `reverbZone` / `lowPass` on play.
    @Suite struct SceneEffectsTests {
        private func scene(_ json: String) throws -> Scene {
            let assets = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("assets").path
            return try SceneParser.parse(data: Data(json.utf8), sceneFolder: assets, fileName: "effects.json")
        }

        private func render(_ scene: Scene) throws -> [Float] {
            var samples: [Float] = []
            _ = try SceneRenderer(scene: scene, sceneName: "effects.json").render(output: { samples += $0 })
            return samples
        }

        @Test func aReverbZoneLeavesATailAndLowPassDarkensTheSound() throws {
            let wet = try render(try scene("""
                {"duration": 1.5, "reverbZones": {"big": "hall"}, "sounds": {"click": "sfx/click.wav"},
                 "events": [{"at": 0, "do": "play", "sound": "click", "position": [0, 0, -1], "reverbZone": "big"}]}
                """))
            let dry = try render(try scene("""
                {"duration": 1.5, "sounds": {"click": "sfx/click.wav"},
                 "events": [{"at": 0, "do": "play", "sound": "click", "position": [0, 0, -1]}]}
                """))
            let tail = 24_000..<60_000
            #expect(VoicePoolFixture.rms(dry, channel: 0, frames: tail) == 0)
            #expect(VoicePoolFixture.rms(wet, channel: 0, frames: tail) > 1e-4)
            let dark = try render(try scene("""
                {"duration": 0.5, "sounds": {"noise": "sfx/noise.wav"},
                 "events": [{"at": 0, "do": "play", "sound": "noise", "lowPass": 0.05}]}
                """))
            let bright = try render(try scene("""
                {"duration": 0.5, "sounds": {"noise": "sfx/noise.wav"},
                 "events": [{"at": 0, "do": "play", "sound": "noise"}]}
                """))
            #expect(VoicePoolFixture.rms(dark, channel: 0, frames: 480..<9_600) < 0.7 * VoicePoolFixture.rms(bright, channel: 0, frames: 480..<9_600))
        }

        @Test(arguments: [
            #"{"duration": 1, "reverbZones": {"big": "stadium"}, "sounds": {}, "events": []}"#,
            #"{"duration": 1, "reverbZones": ["hall"], "sounds": {}, "events": []}"#,
            #"{"duration": 1, "sounds": {"click": "sfx/click.wav"}, "events": [{"at": 0, "do": "play", "sound": "click", "reverbZone": "none"}]}"#,
            #"{"duration": 1, "sounds": {"click": "sfx/click.wav"}, "events": [{"at": 0, "do": "play", "sound": "click", "lowPass": 1.5}]}"#,
        ])
        func badEffectFieldsAreBadScenes(json: String) throws {
            do {
                _ = try scene(json)
                Issue.record("parsed: \(json)")
            } catch let error as InterludeError {
                #expect(error.code == .badScene)
                #expect(error.message.hasPrefix("effects.json"))
            }
        }
    }
}
