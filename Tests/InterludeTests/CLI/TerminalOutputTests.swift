import Foundation
import Testing

/// What `interlude` shows on a terminal, driven through tmux: the render progress bar (only on
/// a terminal, only for long work) and the live meter of `interlude play`.
@Suite struct TerminalOutputTests {
    /// A scene that takes several seconds of work to render: 40 looping voices for 200 s.
    private func longScene(in folder: URL) throws -> URL {
        var events = [#"{"at": 0, "do": "music.play", "sound": "theme"}"#]
        for index in 0..<40 {
            events.append(#"{"at": 0, "do": "play", "sound": "fire", "loop": true, "position": [\#(index % 7 - 3), 0, \#(-1 - index / 7)]}"#)
        }
        let json = """
            {"duration": 200, "sounds": {"theme": "\(TestPaths.asset("music/theme.ogg"))", "fire": "\(TestPaths.asset("ambience/fire.wav"))"},
             "events": [\(events.joined(separator: ","))]}
            """
        return try RenderCommandTests.write(json, to: folder, name: "long.json")
    }

    @Test func aLongRenderShowsAProgressBarOnATerminalOnly() throws {
        let folder = try RenderCommandTests.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scene = try longScene(in: folder)
        let interlude = try ProductProcess.executable("interlude").path
        let output = folder.appendingPathComponent("tty.wav").path
        let session = try TmuxSession(command: "\(interlude) render \(scene.path) --output \(output) && echo RENDER-DONE")
        let screen = try session.waitForScreen(timeoutSeconds: 240, "the render to finish") { $0.contains("RENDER-DONE") }
        #expect(screen.contains("[########################################] 100%"), "screen:\n\(screen)")

        let piped = try ProductProcess.run("interlude", ["render", scene.path, "--output", folder.appendingPathComponent("piped.wav").path],
                                           limitSeconds: 240)
        #expect(piped.status == 0)
        #expect(piped.standardError.isEmpty, "piped stderr: \(piped.standardError)")
    }

    @Test func playShowsALiveMeterAndTheSessionState() throws {
        let interlude = try ProductProcess.executable("interlude").path
        let session = try TmuxSession(command: "\(interlude) play \(TestPaths.asset("music/theme.ogg")) --loop --device null",
                                      environment: ["ALSOFT_DRIVERS": "null"])
        let screen = try session.waitForScreen("the meter to move") { screen in
            screen.contains("session: active") && screen.contains("[|")
        }
        #expect(screen.contains(" s  session: active"))
        try session.send("C-c")
    }
}
