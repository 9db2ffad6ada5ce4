import BenchKit
import Foundation
import Testing

/// The tables docs/performance.md and README.md show are generated from the committed
/// docs/bench-results.json (`make bench-tables`): these fail when one was typed by hand or went
/// stale against the JSON.
@Suite struct BenchTablesTests {
    /// The repository's root, from this file's place in it.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func tables() throws -> BenchTables {
        try BenchTables(jsonPath: root.appendingPathComponent(BenchTables.snapshotPath).path, source: BenchTables.snapshotPath)
    }

    @Test func everyCommittedTableIsWhatTheCommittedRunGives() throws {
        let stale = try BenchTables.update(root: Self.root, checkOnly: true)
        #expect(stale.isEmpty, "run `make bench-tables`: the tables of \(stale) differ from \(BenchTables.snapshotPath)")
    }

    /// Each table is there, from the snapshot or from a kept run (`<!-- bench:NAME from FILE:begin -->`).
    @Test func performanceDocumentHoldsItsTables() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("docs/performance.md"), encoding: .utf8)
        for name in ["run", "peers", "players", "peer-ratios", "idle", "memory"] {
            let fromSnapshot = text.contains("<!-- bench:\(name):begin -->") && text.contains("<!-- bench:\(name):end -->")
            #expect(fromSnapshot || text.contains("<!-- bench:\(name) from "), "\(name)")
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
