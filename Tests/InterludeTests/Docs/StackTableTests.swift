import Foundation
import Testing

/// docs/stacks.md's stack-by-behaviour table is written by scripts/stack-table.sh from the cells
/// the server tests measured (bench/results/stacks.tsv): these fail when the table was edited by
/// hand, went stale against that file, or has a cell no run measured.
@Suite struct StackTableTests {
    static func script(_ arguments: [String], in root: URL) throws -> (status: Int32?, errorText: String) {
        let child = try LineReadingChild<String>(["/bin/bash", root.appendingPathComponent("scripts/stack-table.sh").path] + arguments,
                                                 environment: ["PATH": "/usr/bin:/bin", "LC_ALL": "C"]) { line, _ in line }
        #expect(child.process.waitForExit(timeoutSeconds: 30), "stack-table.sh did not finish")
        child.waitForReaders()
        let status = child.process.status.flatMap { raw -> Int32? in (raw & 0x7F) == 0 ? (raw >> 8) & 0xFF : nil }
        return (status, child.errorText)
    }

    @Test("the committed table is what the committed cells give, and every cell was measured")
    func committedTableIsTheCells() throws {
        let run = try Self.script(["--check"], in: TestPaths.packageRoot)
        #expect(run.status == 0, "\(run.errorText)")
    }

    /// In a copy of the two files: a new run's line replaces the kept cell, the table follows, and
    /// a figure typed into the table by hand is caught.
    @Test("a measured cell replaces the kept one; a hand edit is caught")
    func aNewMeasurementReplacesTheCell() throws {
        let folder = try ScratchFolder(prefix: "interlude-stack-table")
        let root = folder.directory
        for path in ["scripts", "bench/results", "docs"] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(path), withIntermediateDirectories: true)
        }
        for path in ["scripts/stack-table.sh", "bench/results/stacks.tsv", "docs/stacks.md"] {
            try FileManager.default.copyItem(at: TestPaths.packageRoot.appendingPathComponent(path), to: root.appendingPathComponent(path))
        }
        let log = root.appendingPathComponent("test-output.log")
        try "noise\nSTACK-CELL\t1.19.1 / PulseAudio\tSIGSTOP\ta new measurement\n".write(to: log, atomically: true, encoding: .utf8)
        #expect(try Self.script([log.path], in: root).status == 0)
        let cells = try String(contentsOf: root.appendingPathComponent("bench/results/stacks.tsv"), encoding: .utf8)
        #expect(cells.contains("1.19.1 / PulseAudio\tSIGSTOP\ta new measurement\n"))
        let document = try String(contentsOf: root.appendingPathComponent("docs/stacks.md"), encoding: .utf8)
        #expect(document.contains("a new measurement"))
        #expect(try Self.script(["--check"], in: root).status == 0)
        try document.replacingOccurrences(of: "a new measurement", with: "typed by hand")
            .write(to: root.appendingPathComponent("docs/stacks.md"), atomically: true, encoding: .utf8)
        let stale = try Self.script(["--check"], in: root)
        #expect(stale.status == 1 && stale.errorText.contains("not what"), "\(stale.errorText)")
    }
}
