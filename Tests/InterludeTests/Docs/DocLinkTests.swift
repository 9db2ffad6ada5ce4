import Foundation
import Testing

/// Every relative link in the README, docs/ and the DocC articles leads to a file that exists,
/// and each "compiled example" pointer in guide.md leads to an article that holds a compiled
/// snippet (a `<!-- snippet: NAME -->` block).
@Suite struct DocLinkTests {
    /// The relative link targets in `markdown` (no scheme, no bare anchor), each with its line.
    static func relativeLinks(in markdown: String) -> [(line: Int, target: String)] {
        var links: [(Int, String)] = []
        for (number, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var rest = line[...]
            while let open = rest.range(of: "](") {
                let after = rest[open.upperBound...]
                guard let close = after.firstIndex(of: ")") else { break }
                let target = String(after[..<close])
                rest = after[close...]
                if target.contains("://") || target.hasPrefix("#") || target.hasPrefix("mailto:") || target.hasPrefix("doc:") { continue }
                links.append((number + 1, String(target.split(separator: "#", maxSplits: 1).first ?? "")))
            }
        }
        return links
    }

    static var documents: [URL] {
        let root = TestPaths.packageRoot
        let folders = ["docs", "Sources/Interlude/Interlude.docc"].map { root.appendingPathComponent($0) }
        let inFolders = folders.flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? [])
                .filter { $0.pathExtension == "md" }
        }
        return [root.appendingPathComponent("README.md")] + inFolders.sorted { $0.path < $1.path }
    }

    @Test("every relative link in the README, docs/ and the DocC articles names a file that exists")
    func relativeLinksResolve() throws {
        var broken: [String] = []
        for document in Self.documents {
            let text = try String(contentsOf: document, encoding: .utf8)
            for (line, target) in Self.relativeLinks(in: text) where !target.isEmpty {
                let resolved = document.deletingLastPathComponent().appendingPathComponent(target).standardizedFileURL
                if !FileManager.default.fileExists(atPath: resolved.path) {
                    broken.append("\(document.lastPathComponent):\(line): \(target)")
                }
            }
        }
        #expect(broken.isEmpty, "\(broken)")
    }

    @Test("guide.md's compiled-example pointers lead to articles with compiled snippets")
    func examplePointersLeadToSnippets() throws {
        let guide = TestPaths.packageRoot.appendingPathComponent("docs/guide.md")
        let text = try String(contentsOf: guide, encoding: .utf8)
        let pointers = text.split(separator: "\n").filter { $0.hasPrefix("(The compiled example is in") }
        #expect(!pointers.isEmpty)
        for pointer in pointers {
            let links = Self.relativeLinks(in: String(pointer))
            try #require(links.count == 1, "\(pointer)")
            let article = guide.deletingLastPathComponent().appendingPathComponent(links[0].target).standardizedFileURL
            let articleText = (try? String(contentsOf: article, encoding: .utf8)) ?? ""
            #expect(articleText.contains("<!-- snippet: "), "\(links[0].target) holds no compiled snippet")
        }
    }

    @Test("the link reader finds relative targets and skips web links and anchors")
    func linksAreRead() {
        let links = Self.relativeLinks(in: "see [a](guide.md#x) and [b](https://example.com)\n[c](#top) [d](../README.md)")
        #expect(links.map(\.target) == ["guide.md", "../README.md"])
        #expect(links.map(\.line) == [1, 2])
    }
}
