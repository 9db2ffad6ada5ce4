import Foundation
import Testing
@testable import Interlude

/// The one atomic file writer that snapshots, scene logs, plots and WAV files all go through:
/// a failure at any step leaves neither the destination nor a temporary file behind.
@Suite struct AtomicFileTests {
    /// The names in `folder`, hidden ones included, sorted.
    static func contents(of folder: ScratchFolder) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.directory.path).sorted()
    }

    @Test("A missing folder throws .writeFailed naming the path")
    func missingFolderThrows() throws {
        let folder = try ScratchFolder(prefix: "atomic-file")
        let path = folder.path("missing/out.txt")
        let error = try #require(throws: InterludeError.self) { try AtomicFile.write("text", to: path) }
        #expect(error.code == .writeFailed)
        #expect(error.message.hasPrefix(path + ": "), "\(error.message)")
        #expect(try Self.contents(of: folder).isEmpty)
    }

    @Test("A rename that fails (a folder is in the way) removes the temporary file")
    func failedCommitLeavesNothing() throws {
        let folder = try ScratchFolder(prefix: "atomic-file")
        let path = folder.path("taken")
        try FileManager.default.createDirectory(atPath: path + "/inside", withIntermediateDirectories: true)
        let error = try #require(throws: InterludeError.self) { try AtomicFile.write("text", to: path) }
        #expect(error.code == .writeFailed)
        #expect(error.message.hasPrefix(path + ": cannot rename"), "\(error.message)")
        #expect(try Self.contents(of: folder) == ["taken"])
    }

    @Test("A streamed file is hidden until committed, then replaces the destination whole")
    func streamedFileAppearsOnCommit() throws {
        let folder = try ScratchFolder(prefix: "atomic-file")
        let path = folder.path("take.bin")
        try Data("old".utf8).write(to: URL(fileURLWithPath: path))
        let file = try AtomicFile(path: path)
        try [UInt8](repeating: 7, count: 4).withUnsafeBytes { try file.write($0, atOffset: 2) }
        try [UInt8]([1, 2]).withUnsafeBytes { try file.write($0, atOffset: 0) }
        let during = try Self.contents(of: folder)
        #expect(during.count == 2 && during[0].hasPrefix(".take.bin."), "\(during)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("old".utf8))
        try file.commit()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data([1, 2, 7, 7, 7, 7]))
        #expect(try Self.contents(of: folder) == ["take.bin"])
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o644)
        let reuse = try #require(throws: InterludeError.self) { try file.commit() }
        #expect(reuse.code == .writeFailed)
    }

    @Test("discard() and releasing an uncommitted file leave the destination untouched")
    func discardLeavesNothing() throws {
        let folder = try ScratchFolder(prefix: "atomic-file")
        let path = folder.path("take.bin")
        let file = try AtomicFile(path: path)
        try [UInt8]([1]).withUnsafeBytes { try file.write($0, atOffset: 0) }
        file.discard()
        #expect(try Self.contents(of: folder).isEmpty)
        let writeAfterDiscard = try #require(throws: InterludeError.self) {
            try [UInt8]([1]).withUnsafeBytes { try file.write($0, atOffset: 0) }
        }
        #expect(writeAfterDiscard.message.hasPrefix(path + ": "))

        func abandon() throws {
            let abandoned = try AtomicFile(path: path)
            try [UInt8]([2]).withUnsafeBytes { try abandoned.write($0, atOffset: 0) }
        }
        try abandon()
        #expect(try Self.contents(of: folder).isEmpty)
    }

    @Test("A snapshot written into a missing folder throws .writeFailed and leaves nothing")
    func snapshotUsesTheSameWriter() throws {
        let folder = try ScratchFolder(prefix: "atomic-file")
        let path = folder.path("missing/state.json")
        let snapshot = SavedState(tracks: [], loopingVoices: [], groupGains: ["sfx": 0.5], listener: Listener())
        let error = try #require(throws: InterludeError.self) { try snapshot.write(to: path) }
        #expect(error.code == .writeFailed)
        #expect(error.message.hasPrefix(path + ": "))
        #expect(try Self.contents(of: folder).isEmpty)
        try snapshot.write(to: folder.path("state.json"))
        #expect(try SavedState.read(from: folder.path("state.json")) == snapshot)
        #expect(try Self.contents(of: folder) == ["state.json"])
    }
}
