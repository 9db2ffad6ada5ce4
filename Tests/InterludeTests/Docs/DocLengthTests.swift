import Foundation
import Testing

/// The pages that must stay short enough to stay true: architecture.md a line or two per room
/// (at most 250 lines), performance.md its method, goals, generated tables and known gaps (at
/// most 300). History lives in git, not in them.
@Suite struct DocLengthTests {
    @Test("architecture.md and performance.md stay within their lengths", arguments: [
        ("docs/architecture.md", 250), ("docs/performance.md", 300),
    ])
    func pageStaysShort(page: String, maximumLines: Int) throws {
        let text = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent(page), encoding: .utf8)
        let lineCount = text.split(separator: "\n", omittingEmptySubsequences: false).count - (text.hasSuffix("\n") ? 1 : 0)
        #expect(lineCount <= maximumLines, "\(page) has \(lineCount) lines, more than \(maximumLines)")
    }
}
