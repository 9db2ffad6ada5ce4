import Foundation
import Testing

/// Every Swift example a reader sees (README.md and the DocC articles) is a file in Snippets/,
/// which `swift build` compiles: each example must be marked with the snippet it shows and say
/// exactly what that file says, so an example cannot rot.
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
        return [root.appendingPathComponent("README.md")] + articles.filter { $0.pathExtension == "md" }.sorted { $0.path < $1.path }
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
            let snippet = marker.hasPrefix("<!-- snippet: ") && marker.hasSuffix(" -->")
                ? String(marker.dropFirst("<!-- snippet: ".count).dropLast(" -->".count)) : nil
            examples.append(Example(document: document.lastPathComponent, line: start + 1, snippet: snippet,
                                    code: code.joined(separator: "\n") + "\n"))
            index += 1
        }
        return examples
    }

    @Test("every Swift example in the README and the DocC articles is a compiled snippet, word for word")
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
}
