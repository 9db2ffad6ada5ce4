import BenchKit
import Foundation
import Testing

/// The tables docs/performance.md and README.md show are generated from the committed
/// docs/bench-results.json (`make bench-tables`): these fail when one was typed by hand, went
/// stale against the JSON, or came from another run.
@Suite struct BenchTablesTests {
    static let root = BenchTestPaths.repositoryRoot

    static func tables() throws -> BenchTables {
        try BenchTables(jsonPath: root.appendingPathComponent(BenchTables.snapshotPath).path, source: BenchTables.snapshotPath)
    }

    @Test func everyCommittedTableIsWhatTheCommittedRunGives() throws {
        let stale = try BenchTables.update(root: Self.root, checkOnly: true)
        #expect(stale.isEmpty, "run `make bench-tables`: the tables of \(stale) differ from \(BenchTables.snapshotPath)")
    }

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The bench markers of `text`, each as what sits between "bench:" and ":begin" or ":end".
    static func markers(in text: String) -> [String] {
        text.split(separator: "\n").compactMap { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("<!-- bench:") else { return nil }
            for end in [":begin -->", ":end -->"] where trimmed.hasSuffix(end) {
                return String(trimmed.dropFirst("<!-- bench:".count).dropLast(end.count))
            }
            return nil
        }
    }

    /// docs/performance.md holds every section's table; the whole run's (`run`) is too long for
    /// it, the README has `peers`, docs/stacks.md `stacks`.
    @Test func performanceDocumentHoldsItsTables() throws {
        let markers = Self.markers(in: try Self.text("docs/performance.md"))
        for name in BenchTables.names where !["run", "peers", "stacks"].contains(name) {
            #expect(markers.filter { $0 == name }.count == 2, "\(name)")
        }
        #expect(Self.markers(in: try Self.text("README.md")).filter { $0 == "peers" }.count == 2)
    }

    /// The page stays short: one run's figures and what they measure, no history (which goes in
    /// commit messages and issue notes), at most 300 lines with a full run's tables in it.
    @Test func performanceDocumentIsAtMost300Lines() throws {
        let lines = try Self.text("docs/performance.md").split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count <= 300, "docs/performance.md has \(lines.count) lines")
    }

    /// Every table of the README and docs/performance.md comes from the one snapshot: no marker
    /// names a kept run (`<!-- bench:NAME from FILE:begin -->`), so no older run creeps back.
    @Test func readmeAndPerformanceTablesComeFromTheSnapshotAlone() throws {
        for path in ["README.md", "docs/performance.md"] {
            let markers = Self.markers(in: try Self.text(path))
            #expect(!markers.isEmpty, "\(path)")
            for marker in markers {
                #expect(BenchTables.names.contains(marker), "\(path): <!-- bench:\(marker) --> is not the plain form of a table")
            }
        }
    }

    /// Each table renders from the committed run, and from a run with no rows says what the run
    /// lacks instead of showing an empty table.
    @Test func everyTableRendersAndSaysWhatARunLacks() throws {
        let tables = try Self.tables()
        let empty = BenchTables(report: BenchReport(rounds: 1, isQuick: true, rows: [], notes: []), source: "empty.json")
        for name in BenchTables.names {
            let table = try #require(tables.table(named: name), "\(name)")
            #expect(!table.isEmpty, "\(name)")
            guard name != "source" else { continue }
            let lacking = try #require(empty.table(named: name), "\(name)")
            #expect(lacking.contains("This run has no scenario"), "\(name): \(lacking)")
            #expect(!lacking.contains("| --- |"), "\(name): an empty table")
        }
    }

    /// A figure changed by hand inside a block is put back; text outside the blocks is kept.
    @Test func aHandEditedFigureIsReplacedAndTheRestKept() throws {
        let tables = try Self.tables()
        let generated = try #require(tables.table(named: "peers"))
        let document = "before\n<!-- bench:peers:begin -->\n| typed | 0.99 |\n<!-- bench:peers:end -->\nafter\n"
        let rewritten = try tables.rewrite(document, file: "test.md")
        #expect(rewritten == "before\n<!-- bench:peers:begin -->\n\(generated)\n<!-- bench:peers:end -->\nafter\n")
        #expect(try tables.rewrite(rewritten, file: "test.md") == rewritten)
        #expect(generated.contains("| raw C"))
    }

    @Test func anUnknownOrUnclosedBlockIsRefusedByName() throws {
        let tables = try Self.tables()
        #expect(throws: BenchError.self) { try tables.rewrite("<!-- bench:nonesuch:begin -->\n<!-- bench:nonesuch:end -->", file: "x.md") }
        #expect(throws: BenchError.self) { try tables.rewrite("<!-- bench:run:begin -->\nno end", file: "x.md") }
        #expect(tables.table(named: "nonesuch") == nil)
    }
}
