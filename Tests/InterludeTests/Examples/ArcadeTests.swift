import Foundation
import Testing

/// The Arcade played in tmux, as a person would: keys sent to a real terminal, the screen read
/// back. The engine runs in the child (null backend), so the suite needs no place in EngineSuites.
@Suite struct ArcadeTests {
    static func statusLine(_ screen: String) -> String? {
        screen.split(separator: "\n").first { $0.hasPrefix("session: ") }.map(String.init)
    }

    /// The @'s row and column on the screen.
    static func playerCell(_ screen: String) -> (row: Int, column: Int)? {
        for (row, line) in screen.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("|"), let index = line.firstIndex(of: "@") {
                return (row, line.distance(from: line.startIndex, to: index))
            }
        }
        return nil
    }

    /// "m:ss.mmm" after `label` on the screen, in seconds.
    static func seconds(after label: String, in screen: String) -> Double? {
        guard let range = screen.range(of: label) else { return nil }
        let text = screen[range.upperBound...].prefix { $0.isNumber || $0 == ":" || $0 == "." }
        let parts = text.split(separator: ":")
        guard parts.count == 2, let minutes = Double(parts[0]), let seconds = Double(parts[1]) else { return nil }
        return minutes * 60 + seconds
    }

    /// The score loops every 8 s (four bars at 120 bpm): how far the music went from one reading
    /// to a later one.
    static func musicSeconds(from earlier: Double, to later: Double) -> Double {
        (later - earlier + 8).truncatingRemainder(dividingBy: 8)
    }

    /// The game's exit status, once the shell that ran it has printed it.
    static func exitStatus(_ screen: String) -> Int? {
        screen.firstMatch(of: /ARCADE-EXIT=(\d+)/).flatMap { Int($0.1) }
    }

    /// Runs the Arcade in tmux on the null backend; the shell prints its exit status after it.
    private func launch(_ arcade: String, statePath: String, bankPath: String? = nil) throws -> TmuxSession {
        let bank = bankPath.map { " --bank '\($0)'" } ?? ""
        return try TmuxSession(command: "'\(arcade)' --state '\(statePath)'\(bank); echo ARCADE-EXIT=$?", rows: 24,
                               environment: ["ALSOFT_DRIVERS": "null"])
    }

    @Test("In tmux: i and e change the session on the status line, arrows move the @, q saves, and the next launch resumes the music")
    func playInTmux() throws {
        let arcade = try ProductProcess.executable("Arcade").path
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("arcade-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let statePath = folder.appendingPathComponent("state.json").path

        // First launch: a new game.
        let first = try launch(arcade, statePath: statePath)
        var screen = try first.waitForScreen("the status line") { Self.statusLine($0) != nil }
        #expect(screen.contains("new game"), "\(screen)")
        #expect(screen.contains("(no sound device: null backend)"))
        let status = try #require(Self.statusLine(screen), "no status line:\n\(screen)")
        #expect(status.contains("session: active"), "\(status)")

        // More looping emitters than the real-voice budget: some are virtual.
        let voices = try #require(status.firstMatch(of: /voices: (\d+) real, (\d+) virtual/), "\(status)")
        #expect(Int(voices.1)! >= 1 && Int(voices.1)! <= 4, "\(status)")
        #expect(Int(voices.2)! >= 1, "\(status)")

        // The music plays: its position moves on the status line between redraws.
        let start = try #require(Self.seconds(after: "| music ", in: screen), "\(status)")
        try first.waitForScreen("the music to move") { screen in
            Self.seconds(after: "| music ", in: screen).map { Self.musicSeconds(from: start, to: $0) > 0.3 } ?? false
        }

        // An incoming call, then its end.
        try first.send("i")
        screen = try first.waitForScreen("INTERRUPTED") { Self.statusLine($0)?.contains("session: INTERRUPTED (call, by game)") == true }
        try first.send("e")
        screen = try first.waitForScreen("active again") { Self.statusLine($0)?.contains("session: active") == true }

        // Walking: three steps right, one down.
        let before = try #require(Self.playerCell(screen), "no @ on the map:\n\(screen)")
        try first.send("Right", "Right", "Right", "Down")
        screen = try first.waitForScreen("the @ to move") { Self.playerCell($0).map { $0 == (before.row + 1, before.column + 3) } ?? false }

        // The pause mix: the "paused" snapshot starts, then stops.
        try first.send("p")
        screen = try first.waitForScreen("the paused mix") { Self.statusLine($0)?.hasSuffix("| mix paused") == true }
        try first.send("p")
        screen = try first.waitForScreen("the mix back") { Self.statusLine($0)?.hasSuffix("| mix normal") == true }

        // Quit: the game exits with status 0 and leaves its snapshot.
        try FileManager.default.removeItem(atPath: statePath)
        try first.send("q")
        screen = try first.waitForScreen("the game to exit") { Self.exitStatus($0) != nil }
        #expect(Self.exitStatus(screen) == 0, "\(screen)")
        #expect(FileManager.default.fileExists(atPath: statePath))

        // Second launch: the header says where the music resumed, and it goes on from there.
        let second = try launch(arcade, statePath: statePath)
        screen = try second.waitForScreen("the status line") { Self.statusLine($0) != nil }
        let resumedAt = try #require(Self.seconds(after: "resumed at ", in: screen), "no resume in the header:\n\(screen)")
        let music = try #require(Self.seconds(after: "| music ", in: screen))
        #expect(Self.musicSeconds(from: resumedAt, to: music) < 2,
                "the music is at \(music) s, not going on from \(resumedAt) s")
        try second.send("q")
        screen = try second.waitForScreen("the game to exit") { Self.exitStatus($0) != nil }
        #expect(Self.exitStatus(screen) == 0, "\(screen)")
    }
    @Test("In tmux: the cue bank is reloaded when its file is saved; a bad save keeps the previous bank, the game plays on, and the message line says why")
    func bankEditedWhilePlaying() throws {
        let arcade = try ProductProcess.executable("Arcade").path
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("arcade-bank-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // The game's own bank, its sounds named by absolute paths so that the copy finds them.
        let original = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("examples/Arcade/arcade-bank.json"), encoding: .utf8)
        let bank = original.replacingOccurrences(of: "../../assets/", with: TestPaths.packageRoot.appendingPathComponent("assets").path + "/")
        let bankPath = folder.appendingPathComponent("bank.json").path
        try Data(bank.utf8).write(to: URL(fileURLWithPath: bankPath))

        let game = try launch(arcade, statePath: folder.appendingPathComponent("state.json").path, bankPath: bankPath)
        var screen = try game.waitForScreen("the status line") { Self.statusLine($0) != nil }
        // A designer's typo: a footstep variant that is not a sound.
        try Data(bank.replacingOccurrences(of: #""variants": ["footstep"]"#, with: #""variants": ["footstpe"]"#).utf8)
            .write(to: URL(fileURLWithPath: bankPath))
        screen = try game.waitForScreen("the failed reload") { $0.contains("cue bank not reloaded") }
        #expect(screen.contains("footstep"), "the message does not name the cue:\n\(screen)")
        // The game plays on with the previous bank: a step still plays its footstep cue.
        let before = try #require(Self.playerCell(screen), "no @ on the map:\n\(screen)")
        try game.send("Right")
        screen = try game.waitForScreen("the @ to move") { Self.playerCell($0).map { $0 == (before.row, before.column + 1) } ?? false }
        #expect(!screen.contains("Error"), "\(screen)")
        // The fix is saved: the bank is loaded again.
        try Data(bank.replacingOccurrences(of: #""gain": [0.6, 0.8]"#, with: #""gain": [0.9, 1.0]"#).utf8)
            .write(to: URL(fileURLWithPath: bankPath))
        screen = try game.waitForScreen("the reload") { $0.contains("cue bank reloaded") }
        try game.send("q")
        screen = try game.waitForScreen("the game to exit") { Self.exitStatus($0) != nil }
        #expect(Self.exitStatus(screen) == 0, "\(screen)")
    }
}
