import Foundation
import Testing

/// The Arcade played in tmux, as a person would: keys sent to a real terminal, the screen read
/// back. The engine runs in the child (null backend), so the suite needs no place in EngineSuites.
@Suite struct ArcadeTests {
    /// A private tmux server (its own socket) with one game session at a fixed size.
    struct Tmux {
        let socket = "interlude-arcade-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"

        /// Runs tmux with posix_spawn and waitpid. Not Foundation's Process: the client exits
        /// once it has forked the server, and Process was seen never to notice it (a zombie and a
        /// hung test). Output goes to a file, not a pipe, which the server would hold open.
        @discardableResult
        func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
            let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("\(socket)-\(UUID().uuidString).txt").path
            defer { try? FileManager.default.removeItem(atPath: outputPath) }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
            let argv = ["tmux", "-L", socket] + arguments
            var cArguments = argv.map { strdup($0) } + [nil]
            defer { for argument in cArguments { free(argument) } }
            var pid = pid_t()
            // The test process blocks signals on its threads; a tmux server inheriting that mask
            // never sees SIGCHLD, so its panes never die and kill-server never finishes.
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            var emptyMask = sigset_t(), defaults = sigset_t()
            sigemptyset(&emptyMask)
            sigfillset(&defaults)
            posix_spawnattr_setsigmask(&attributes, &emptyMask)
            posix_spawnattr_setsigdefault(&attributes, &defaults)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
            let spawned = posix_spawnp(&pid, "tmux", &actions, &attributes, &cArguments, environ)
            try #require(spawned == 0, "tmux could not be started: \(spawned)")
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
            return ((status >> 8) & 0xFF, output)
        }

        /// Starts `command` in a detached 100 x 24 session whose pane stays after the game exits
        /// (remain-on-exit, set in the same tmux call), so its exit status can be read.
        func start(session: String, command: String) throws {
            let result = try run(["new-session", "-d", "-s", session, "-x", "100", "-y", "24", command,
                                  ";", "set-option", "-w", "-t", session, "remain-on-exit", "on"])
            try #require(result.status == 0, "tmux new-session failed")
        }

        /// The game's exit status once its pane is dead, nil while it runs.
        func exitStatus(_ session: String) throws -> Int32? {
            let fields = try run(["display-message", "-p", "-t", session, "#{pane_dead} #{pane_dead_status}"]).output
                .split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            guard fields.count == 2, fields[0] == "1" else { return nil }
            return Int32(fields[1])
        }

        /// Polls until the game has exited; nil if it is still running after `seconds`.
        func waitForExit(_ session: String, seconds: Double = 20) throws -> Int32? {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if let status = try exitStatus(session) { return status }
                usleep(50_000)
            }
            return try exitStatus(session)
        }

        func capture(_ session: String) throws -> String {
            try run(["capture-pane", "-p", "-t", session]).output
        }

        func send(_ session: String, _ keys: String...) throws {
            try run(["send-keys", "-t", session] + keys)
        }

        /// Polls the pane until `condition` holds on it; returns the last capture either way.
        func waitFor(_ session: String, seconds: Double = 20, _ condition: (String) -> Bool) throws -> String {
            let deadline = Date().addingTimeInterval(seconds)
            var screen = try capture(session)
            while !condition(screen), Date() < deadline {
                usleep(50_000)
                screen = try capture(session)
            }
            return screen
        }

        func killServer() {
            _ = try? run(["kill-server"])
        }
    }

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

    @Test("In tmux: i and e change the session on the status line, arrows move the @, q saves, and the next launch resumes the music")
    func playInTmux() throws {
        let tmuxFound = FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux")
            || FileManager.default.isExecutableFile(atPath: "/usr/local/bin/tmux")
        try #require(tmuxFound, "tmux is not installed")
        let arcade = try ProductProcess.executable("Arcade").path
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("arcade-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let statePath = folder.appendingPathComponent("state.json").path
        let command = "env ALSOFT_DRIVERS=null '\(arcade)' --state '\(statePath)'"
        let tmux = Tmux()
        defer { tmux.killServer() }

        // First launch: a new game.
        try tmux.start(session: "first", command: command)
        var screen = try tmux.waitFor("first") { Self.statusLine($0) != nil }
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
        screen = try tmux.waitFor("first") { (Self.seconds(after: "| music ", in: $0) ?? 0) > start + 0.3 }
        #expect((Self.seconds(after: "| music ", in: screen) ?? 0) > start + 0.3, "the music position did not move")

        // An incoming call, then its end.
        try tmux.send("first", "i")
        screen = try tmux.waitFor("first") { Self.statusLine($0)?.contains("INTERRUPTED (call)") == true }
        #expect(Self.statusLine(screen)?.contains("session: INTERRUPTED (call)") == true, "\(screen)")
        try tmux.send("first", "e")
        screen = try tmux.waitFor("first") { Self.statusLine($0)?.contains("session: active") == true }
        #expect(Self.statusLine(screen)?.contains("session: active") == true, "\(screen)")

        // Walking: three steps right, one down.
        let before = try #require(Self.playerCell(screen), "no @ on the map:\n\(screen)")
        try tmux.send("first", "Right", "Right", "Right", "Down")
        screen = try tmux.waitFor("first") { Self.playerCell($0).map { $0 == (before.row + 1, before.column + 3) } ?? false }
        let after = try #require(Self.playerCell(screen))
        #expect(after == (before.row + 1, before.column + 3), "the @ went from \(before) to \(after):\n\(screen)")

        // Quit: the game exits with status 0 and leaves its snapshot.
        try tmux.send("first", "q")
        #expect(try tmux.waitForExit("first") == 0)
        #expect(FileManager.default.fileExists(atPath: statePath))
        try tmux.run(["kill-session", "-t", "first"])

        // Second launch: the header says where the music resumed, past the start.
        try tmux.start(session: "second", command: command)
        screen = try tmux.waitFor("second") { Self.statusLine($0) != nil }
        let resumedAt = try #require(Self.seconds(after: "resumed at ", in: screen), "no resume in the header:\n\(screen)")
        #expect(resumedAt > 0.3)
        let music = try #require(Self.seconds(after: "| music ", in: screen))
        #expect(music >= resumedAt, "the music restarted at \(music) s instead of resuming at \(resumedAt) s")
        try tmux.send("second", "q")
        let secondStatus = try tmux.waitForExit("second")
        let lastScreen = try tmux.capture("second")
        #expect(secondStatus == 0, "exit status \(String(describing: secondStatus)):\n\(lastScreen)")
    }
}
