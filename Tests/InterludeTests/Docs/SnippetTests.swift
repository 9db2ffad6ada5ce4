import Foundation
import Testing

/// Every Swift example a reader sees (README.md, the DocC articles and docs/*.md) is a file in
/// Snippets/, which `swift build` compiles into an executable of its name: each example must be
/// marked with the snippet it shows and say exactly what that file says, and each snippet runs
/// headless, so an example can neither rot nor fail the reader who runs it.
@Suite struct SnippetTests {
    /// A ```swift block and the snippet named in the comment line before it, if any.
    struct Example {
        let document: String
        let line: Int
        let snippet: String?
        let code: String
    }

    static let documents: [URL] = {
        let root = TestPaths.packageRoot
        let catalog = root.appendingPathComponent("Sources/Interlude/Interlude.docc")
        let articles = (try? FileManager.default.contentsOfDirectory(at: catalog, includingPropertiesForKeys: nil)) ?? []
        let docs = (try? FileManager.default.contentsOfDirectory(at: root.appendingPathComponent("docs"), includingPropertiesForKeys: nil)) ?? []
        return [root.appendingPathComponent("README.md")]
            + (articles + docs).filter { $0.pathExtension == "md" }.sorted { $0.path < $1.path }
    }()

    static func examples(in document: URL) throws -> [Example] {
        let lines = try String(contentsOf: document, encoding: .utf8).components(separatedBy: "\n")
        var examples: [Example] = []
        var index = 0
        while index < lines.count {
            guard lines[index] == "```swift" else { index += 1; continue }
            let start = index
            index += 1
            var code: [String] = []
            while index < lines.count, lines[index] != "```" {
                code.append(lines[index])
                index += 1
            }
            let marker = start > 0 ? lines[start - 1] : ""
            // A package manifest is not a program: ManifestExampleTests checks it.
            if marker.hasPrefix("<!-- manifest: ") {
                index += 1
                continue
            }
            let snippet = marker.hasPrefix("<!-- snippet: ") && marker.hasSuffix(" -->")
                ? String(marker.dropFirst("<!-- snippet: ".count).dropLast(" -->".count)) : nil
            examples.append(Example(document: document.lastPathComponent, line: start + 1, snippet: snippet,
                                    code: code.joined(separator: "\n") + "\n"))
            index += 1
        }
        return examples
    }

    @Test("every Swift example in the README, the DocC articles and docs/ is a compiled snippet, word for word")
    func examplesAreSnippets() throws {
        let snippets = TestPaths.packageRoot.appendingPathComponent("Snippets")
        var shown: Set<String> = []
        for document in Self.documents {
            for example in try Self.examples(in: document) {
                let name = try #require(example.snippet, "\(example.document):\(example.line): a Swift example with no <!-- snippet: NAME --> line before it")
                let file = snippets.appendingPathComponent(name + ".swift")
                let kept = try #require(try? String(contentsOf: file, encoding: .utf8), "\(example.document):\(example.line): no Snippets/\(name).swift")
                #expect(example.code == kept, "\(example.document):\(example.line) differs from Snippets/\(name).swift")
                shown.insert(name)
            }
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: snippets.path).filter { $0.hasSuffix(".swift") }
        #expect(!files.isEmpty)
        for file in files {
            #expect(shown.contains(String(file.dropLast(".swift".count))), "Snippets/\(file) is shown in no document")
        }
    }

    @Test("a changed example is caught: the comparison sees one character")
    func aChangedExampleIsCaught() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("snippet-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let document = folder.appendingPathComponent("Article.md")
        try "Text\n<!-- snippet: A -->\n```swift\nlet x = 1\n```\n```swift\nprint(2)\n```\n".write(to: document, atomically: true, encoding: .utf8)
        let examples = try Self.examples(in: document)
        #expect(examples.count == 2)
        #expect(examples[0].snippet == "A" && examples[0].code == "let x = 1\n")
        #expect(examples[0].code != "let x = 2\n")
        #expect(examples[1].snippet == nil)
    }

    @Test("the scene SceneInProcess renders, examples/scenes/call.json, is docs/scenes.md's complete example, word for word")
    func theRenderedSceneIsTheDocumentedOne() throws {
        let root = TestPaths.packageRoot
        let page = try String(contentsOf: root.appendingPathComponent("docs/scenes.md"), encoding: .utf8)
        let section = try #require(page.range(of: "## A complete example"), "docs/scenes.md has no complete example")
        let after = page[section.upperBound...]
        let open = try #require(after.range(of: "```json\n"))
        let close = try #require(after[open.upperBound...].range(of: "\n```\n"))
        let file = try String(contentsOf: root.appendingPathComponent("examples/scenes/call.json"), encoding: .utf8)
        #expect(String(after[open.upperBound..<close.lowerBound]) + "\n" == file)
    }

    // MARK: Running them

    /// The snippets, by name: each is an executable of that name beside the test binary.
    static let snippetNames: [String] = {
        let folder = TestPaths.packageRoot.appendingPathComponent("Snippets")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return files.filter { $0.hasSuffix(".swift") }.map { String($0.dropLast(".swift".count)) }.sorted()
    }()

    /// What a snippet prints, line by line, where it prints something its reader can check; a
    /// snippet not listed prints nothing. Headless: `.systemDefaultOrNull` gives the null backend.
    static let expectedOutput: [String: [String]] = [
        "Events": ["interrupted (other) by game: show the pause screen", "back: the soundtrack resumed: false",
                   "the footstep played to its end"],
        "FirstGame": ["interrupted: call", "the soundtrack resumed: true", "rendered 168000 frames"],
        "Headless": ["true"],
        "MusicEnds": ["the fade-in is done", "the chime ended after its frame 35279: play the next cue"],
        "MusicTools": ["true"],
        "SavedGame": ["true"],
        "InterruptionEvents": ["audio interrupted by game: call", "resumed music: false"],
        "OfflineRendering": ["9600 true"],
        "OneVocabulary": ["true true"],
        "AdaptiveMusic": ["[\"rhythm\", \"pads\", \"lead\"]"],
        "SceneInProcess": ["true"],
        "VoicesAtScale": ["64 of 200 voices are real"],
    ]

    /// Snippets whose output goes on after the lines above: the events as `print` shows them.
    static let openEndedOutput: Set<String> = ["InterruptionEvents", "SceneInProcess"]

    /// The engine's log lines a snippet may write to standard error, by the start of their
    /// message: only a snippet about logging logs (at debug). An interruption the game raises
    /// itself and an offline render's scripted device loss are logged at debug.
    static let toleratedLog: [String: [String]] = [
        "LogLevels": [""],
    ]

    /// The message of a swift-log line from the engine (`<time> <level> Interlude...: <metadata>
    /// [Interlude] <message>`), or nil for any other line.
    static func logMessage(_ line: Substring) -> Substring? {
        let words = line.split(separator: " ", maxSplits: 2)
        guard words.count == 3, ["trace", "debug", "info", "notice", "warning"].contains(words[1]), words[2].hasPrefix("Interlude"),
              let marker = line.range(of: "[Interlude] ") else { return nil }
        return line[marker.upperBound...]
    }

    /// A headless machine as far as the child can tell: no audio server it could reach (an empty
    /// runtime folder, no server named in the environment) and no OpenAL Soft driver list of ours.
    static func headlessRun(_ name: String) throws -> (run: ProductProcess.Run, seconds: Double) {
        let runtime = FileManager.default.temporaryDirectory.appendingPathComponent("snippet-runtime-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: runtime) }
        let start = ContinuousClock.now
        let run = try ProductProcess.run(name, [], in: TestPaths.packageRoot, environment: ["XDG_RUNTIME_DIR": runtime.path],
                                         removing: ["PULSE_SERVER", "PULSE_RUNTIME_PATH", "PULSE_CLIENTCONFIG", "PIPEWIRE_REMOTE",
                                                    "PIPEWIRE_RUNTIME_DIR", "ALSOFT_DRIVERS", "ALSOFT_CONF"],
                                         limitSeconds: snippetLimitSeconds)
        let elapsed = ContinuousClock.now - start
        return (run, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
    }

    /// Generous: a snippet takes under 1.5 s alone (measuring a track's loudness is the longest).
    static let snippetLimitSeconds = 30.0

    /// True when this machine has a playback device node the user may open: the child then plays
    /// on it rather than on the null backend, and `Headless` prints false.
    static let machineHasSoundCard: Bool = {
        let nodes = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/snd")) ?? []
        return nodes.contains { $0.hasPrefix("pcmC") && $0.hasSuffix("p") && access("/dev/snd/" + $0, R_OK | W_OK) == 0 }
    }()

    @Test("every snippet runs headless as its reader would run it: exit 0 within its limit, quiet on standard error",
          arguments: snippetNames)
    func snippetRuns(_ name: String) throws {
        let (run, seconds) = try Self.headlessRun(name)
        print("snippet \(name): exit \(run.status) after \(String(format: "%.2f", seconds)) s")
        #expect(!run.wasKilled, "\(name) still ran after \(Self.snippetLimitSeconds) s: \(run.standardOutput)\(run.standardError)")
        #expect(run.status == 0, "\(name) exited \(run.status): \(run.standardError)")
        let tolerated = Self.toleratedLog[name] ?? []
        let unexpected = run.standardError.split(separator: "\n").filter { line in
            guard let message = Self.logMessage(line) else { return true }
            return !tolerated.contains { message.hasPrefix($0) }
        }
        #expect(unexpected.isEmpty, "\(name) wrote to standard error:\n\(unexpected.joined(separator: "\n"))")
        if name == "LogLevels" {
            #expect(run.standardError.contains(" debug Interlude"), "LogLevels logs nothing at debug: \(run.standardError)")
        }
        var expected = Self.expectedOutput[name] ?? []
        if name == "Headless", Self.machineHasSoundCard { expected = ["false"] }
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        if Self.openEndedOutput.contains(name) {
            #expect(Array(lines.prefix(expected.count)) == expected && lines.count > expected.count, "\(name): \(run.standardOutput)")
        } else {
            #expect(lines == expected, "\(name): \(run.standardOutput)")
        }
    }

    @Test("the standard-error check knows the engine's log lines from anything else a snippet writes")
    func theLogCheckReadsEngineLines() {
        let line: Substring = "2026-01-01T00:00:00+0000 info Interlude: output=null [Interlude] interruption began (call, game)"
        #expect(Self.logMessage(line) == "interruption began (call, game)")
        #expect(Self.logMessage("ALSA lib confmisc.c:855:(parse_card) cannot find card '0'") == nil)
        #expect(Self.logMessage("AL lib: (EE) alc_cleanup: 1 device not closed") == nil)
    }
}
