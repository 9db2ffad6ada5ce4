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
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("manifest-\(UUID().uuidString)")
        let game = scratch.appendingPathComponent("Campfire")
        try FileManager.default.createDirectory(at: game.appendingPathComponent("Sources/Campfire"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        try FileManager.default.createSymbolicLink(at: game.appendingPathComponent(paths[0]).standardizedFileURL, withDestinationURL: root)
        try manifest.write(to: game.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try "print(1)\n".write(to: game.appendingPathComponent("Sources/Campfire/main.swift"), atomically: true, encoding: .utf8)
        let output = game.appendingPathComponent("dump.json")
        let descriptor = open(output.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        defer { close(descriptor) }
        let dump = try ChildProcess(["swift", "package", "--package-path", game.path, "dump-package"],
                                    environment: ProcessInfo.processInfo.environment, stdout: descriptor, stderr: descriptor)
        #expect(dump.waitForExit(timeoutSeconds: 120), "swift package dump-package did not finish")
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        #expect(dump.status == 0, "swift package dump-package failed: \(text)")
        #expect(text.contains("\"Campfire\""), "\(text)")
    }
}
