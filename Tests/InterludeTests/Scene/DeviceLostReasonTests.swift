import Foundation
import Testing
@testable import Interlude
@testable import InterludeScene

/// Defect 2, the scene half: `interruption.begin` with reason "deviceLost" is a bad scene, since
/// device loss is the `device.lost` event (before, such a scene rendered silence to the end).
/// Parsing opens no device; the CLI runs as a subprocess, so no nesting in ``EngineSuites``.
@Suite struct DeviceLostReasonTests {
    static let json = """
        { "duration": 2, "sounds": { "beep": "\(TestPaths.asset("sfx/beep.wav"))" },
          "events": [ { "at": 0, "do": "play", "sound": "beep" },
                      { "at": 0.5, "do": "interruption.begin", "reason": "deviceLost" },
                      { "at": 1, "do": "interruption.end", "shouldResume": true } ] }
        """

    @Test("The parser refuses the reason, naming the file, the event and device.lost")
    func parserRefusesDeviceLostReason() throws {
        let folder = try ScratchFolder(prefix: "device-lost-reason")
        let scene = folder.path("lost.json")
        try Data(Self.json.utf8).write(to: URL(fileURLWithPath: scene))
        let error = try #require(throws: InterludeError.self) { try SceneParser.parse(fileAt: scene) }
        #expect(error.code == .badScene)
        #expect(error.message.hasPrefix("\(scene): event 1 (interruption.begin): "), "\(error.message)")
        #expect(error.message.contains("\"deviceLost\"") && error.message.contains("device.lost"), "\(error.message)")
        #expect(!error.message.contains("\n"))
    }

    @Test("Other reasons, a game's own included, still parse")
    func otherReasonsParse() throws {
        let folder = try ScratchFolder(prefix: "device-lost-reason")
        let scene = folder.path("fine.json")
        try Data(Self.json.replacingOccurrences(of: "\"deviceLost\"", with: "\"cutscene\"").utf8).write(to: URL(fileURLWithPath: scene))
        let parsed = try SceneParser.parse(fileAt: scene)
        #expect(parsed.events.map(\.action).contains(.interruptionBegin(reason: "cutscene")))
    }

    @Test("interlude render exits 1 with one line on stderr and writes no output")
    func renderFailsWithOneLine() throws {
        let folder = try RenderCommandTests.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scene = try RenderCommandTests.write(Self.json, to: folder, name: "lost.json")
        let output = folder.appendingPathComponent("out.wav")
        let run = try RenderCommandTests.run(["render", scene.path, "--output", output.path, "--log", folder.appendingPathComponent("out.jsonl").path])
        #expect(run.status == 1)
        let lines = run.standardError.split(separator: "\n", omittingEmptySubsequences: true)
        #expect(lines.count == 1, "\(run.standardError)")
        let line = String(lines.first ?? "")
        #expect(line.contains("\(scene.path): event 1 (interruption.begin)") && line.contains("device.lost"), "\(line)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["lost.json"])
    }
}
