import Foundation
import Testing
@_spi(Tools) import Interlude

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
        Self.expectRefusedAsCorrupt(path, opening: { _ = try VorbisDecoder(path: path) })
    }

    /// Expects the file at `path` to exist and to be refused with `.corruptData` naming it, both
    /// by `open` (its format's decoder) and by the whole-file decode.
    static func expectRefusedAsCorrupt(_ path: String, opening open: @escaping () throws -> Void,
                                       sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(FileManager.default.fileExists(atPath: path), sourceLocation: sourceLocation)
        for open in [open, { _ = try DecoderFactory.decodeAll(path: path) }] {
            #expect(sourceLocation: sourceLocation) {
                try open()
            } throws: { error in
                guard let error = error as? InterludeError else { return false }
                return error.code == .corruptData && error.message.hasPrefix(path)
            }
        }
    }

    /// OpusFuzzer: headers whose timestamps do not add up make op_open_callbacks fail with
    /// OP_EBADTIMESTAMP, and libopusfile 0.12 leaks the tags it parsed doing so (its bug;
    /// suppressed in scripts/lsan.supp). Interlude must reject the file with a typed error.
    @Test func opusHeadersWithBadTimestampsAreRejected() throws {
        let path = Self.folder + "/opus-ebadtimestamp-open-leak.opus"
        Self.expectRefusedAsCorrupt(path, opening: { _ = try OpusDecoder(path: path) })
    }

    /// VorbisFuzzer: a crafted 400-frame stream that opens, reads, and seeks (to 0, then 200)
    /// without any error from libvorbisfile, after which libvorbisfile 1.3.7 / libogg 1.3.5 call
    /// memmove with a negative size inside ogg_stream_pagein (ASan: negative-size-param; without
    /// ASan a wild memmove). Reproduced with plain C and libvorbisfile's own stdio callbacks
    /// (vorbis-seek-pagein-negative-size.c next to the input). The read after the first seek
    /// leaves libogg's stream state inconsistent (more body "returned" than filled);
    /// VorbisDecoder checks that invariant before every call into libvorbisfile and reports the
    /// file corrupt instead of crashing.
    @Test func vorbisSeekSequenceThatCorruptsLiboggStateIsRejected() throws {
        let path = Self.folder + "/vorbis-seek-pagein-negative-size.ogg"
        let decoder = try VorbisDecoder(path: path)
        var buffer = [Float](repeating: 0, count: 1024 * decoder.format.channelCount)
        var rejections = 0
        for frame in [0, decoder.frameCount / 2, decoder.frameCount] {
            do {
                try decoder.seek(toFrame: frame)
                _ = try buffer.withUnsafeMutableBufferPointer { try decoder.read(into: $0) }
            } catch let error as InterludeError {
                #expect(error.code == .corruptData)
                #expect(error.message.hasPrefix(path))
                rejections += 1
            }
        }
        #expect(rejections > 0)
    }
}
