#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// The package manifest that "Your first game" shows is one SwiftPM reads: it parses, asks only
/// for library products this package has, and names its path dependency as SwiftPM does, after
/// the folder. The snippet it builds is FirstGame, run by SnippetTests.
@Suite struct ManifestExampleTests {
    /// The manifest block after `<!-- manifest: NAME -->` in `article`.
    static func manifest(named name: String, in article: URL) throws -> String {
        let lines = try String(contentsOf: article, encoding: .utf8).components(separatedBy: "\n")
        let marker = try #require(lines.firstIndex(of: "<!-- manifest: \(name) -->"), "no manifest \(name) in \(article.lastPathComponent)")
        try #require(lines.indices.contains(marker + 1) && lines[marker + 1] == "```swift", "the manifest \(name) is not a swift block")
        let end = try #require(lines[(marker + 2)...].firstIndex(of: "```"), "the manifest \(name) never ends")
        return lines[(marker + 2)..<end].joined(separator: "\n") + "\n"
    }

    /// Every capture of `pattern`'s first group in `text`.
    static func captures(of pattern: String, in text: String) throws -> [String] {
        let expression = try NSRegularExpression(pattern: pattern)
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    @Test("the manifest on \"Your first game\" parses, and names this package's library products and the folder it depends on")
    func firstGameManifest() throws {
        let root = TestPaths.packageRoot
        let manifest = try Self.manifest(named: "Campfire", in: root.appendingPathComponent("Sources/Interlude/Interlude.docc/YourFirstGame.md"))

        // A path dependency is named after its folder: the label must be the path's last part.
        let paths = try Self.captures(of: #"\.package\(path: "([^"]+)"\)"#, in: manifest)
        try #require(paths.count == 1, "one path dependency expected: \(paths)")
        let folder = URL(fileURLWithPath: paths[0]).lastPathComponent
        let products = try Self.captures(of: #"\.product\(name: "([^"]+)", package: "\#(folder)"\)"#, in: manifest)
        #expect(!products.isEmpty, "no product taken from the \(folder) folder")
        let ours = try Self.captures(of: #"\.library\(name: "([^"]+)""#,
                                     in: String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8))
        for product in products {
            #expect(ours.contains(product), "\(product) is not a library of this package (\(ours))")
        }

        // SwiftPM reads it, with the dependency's folder beside it.
        let (game, scratch) = try Self.makeGame(manifest, dependingAt: paths[0], on: root)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let (status, text) = try Self.swiftPackage(["dump-package"], in: game)
        #expect(status == 0, "swift package dump-package failed: \(text)")
        #expect(text.contains("\"Campfire\""), "\(text)")
    }

    /// A game resolves what Interlude's package needs and nothing of the bench's (a package of
    /// its own, bench/Package.swift): swift-log, and swift-argument-parser, which the package's
    /// `interlude` command needs (a consumer fetches it, and never builds it). The manifest is
    /// the one "Your first game" shows.
    @Test("a game depending on Interlude resolves swift-log and swift-argument-parser, nothing of the bench's")
    func aGameResolvesOnlyWhatThePackageNeeds() throws {
        let root = TestPaths.packageRoot
        let manifest = try Self.manifest(named: "Campfire", in: root.appendingPathComponent("Sources/Interlude/Interlude.docc/YourFirstGame.md"))
        let path = try #require(try Self.captures(of: #"\.package\(path: "([^"]+)"\)"#, in: manifest).first)
        let (game, scratch) = try Self.makeGame(manifest, dependingAt: path, on: root)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let (status, text) = try Self.swiftPackage(["resolve"], in: game)
        #expect(status == 0, "swift package resolve failed: \(text)")
        let resolved = try String(contentsOf: game.appendingPathComponent("Package.resolved"), encoding: .utf8)
        let pins = try Self.captures(of: #""identity" : "([^"]+)""#, in: resolved).sorted()
        #expect(pins == ["swift-argument-parser", "swift-log"], "resolved: \(pins)")
    }

    /// A scratch folder holding the game `Campfire` with `manifest`, and its path dependency
    /// `dependency` linked to `root`.
    static func makeGame(_ manifest: String, dependingAt dependency: String, on root: URL) throws -> (game: URL, scratch: URL) {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("manifest-\(UUID().uuidString)")
        let game = scratch.appendingPathComponent("Campfire")
        try FileManager.default.createDirectory(at: game.appendingPathComponent("Sources/Campfire"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: game.appendingPathComponent(dependency).standardizedFileURL, withDestinationURL: root)
        try manifest.write(to: game.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try "print(1)\n".write(to: game.appendingPathComponent("Sources/Campfire/main.swift"), atomically: true, encoding: .utf8)
        return (game, scratch)
    }

    /// `swift package ARGUMENTS` in `game`: its exit status and what it printed.
    static func swiftPackage(_ arguments: [String], in game: URL) throws -> (status: Int32?, output: String) {
        let output = game.appendingPathComponent("swift-package.txt")
        let descriptor = open(output.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        defer { close(descriptor) }
        let run = try ChildProcess(["swift", "package", "--package-path", game.path] + arguments,
                                   environment: ProcessInfo.processInfo.environment, stdout: descriptor, stderr: descriptor)
        #expect(run.waitForExit(timeoutSeconds: 300), "swift package \(arguments) did not finish")
        return (run.status, (try? String(contentsOf: output, encoding: .utf8)) ?? "")
    }
}
