import Foundation
import Testing
import Interlude

/// Every input a fuzz harness (Fuzz/, `make fuzz`) found a problem with, kept with its input in
/// Tests/Fixtures/fuzz-regressions/ and checked to be rejected cleanly.
@Suite struct FuzzRegressionTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/fuzz-regressions").path

    /// VorbisFuzzer: a damaged header page makes ov_open_callbacks fail with OV_EREAD, and
    /// libvorbisfile 1.3.7 leaks 8 bytes doing so (its bug; suppressed in scripts/lsan.supp).
    /// Interlude must reject the file with a typed error, both ways it opens Vorbis files.
    @Test func vorbisHeaderPageThatFailsWithAReadErrorIsRejected() throws {
        let path = Self.folder + "/vorbis-eread-header-leak.ogg"
        #expect(FileManager.default.fileExists(atPath: path))
        for open in [{ _ = try VorbisDecoder(path: path) }, { _ = try DecoderFactory.decodeAll(path: path) }] as [() throws -> Void] {
            #expect {
                try open()
            } throws: { error in
                guard let error = error as? InterludeError else { return false }
                return error.code == .corruptData && error.message.hasPrefix(path)
            }
        }
    }
}
