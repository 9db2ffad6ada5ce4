import Foundation
@testable import Interlude

/// A real decoder (a file opened by `DecoderFactory`) whose reads block the way a stalled disk's
/// do: while the test holds the gate closed, every read waits until it opens; and with
/// `stallEvery`, every that many reads sleeps `stallSeconds` first.
final class GatedDecoder: AudioDecoder, @unchecked Sendable {
    private struct Gate {
        var isClosed = false
        /// Reads that found the gate closed and waited.
        var blockedReadCount = 0
    }

    private let inner: any AudioDecoder
    private let gate = AnnotatedMutex(Gate())
    private let stallEvery: Int?
    private let stallSeconds: Double
    /// Touched by the decode thread only.
    private var readCount = 0

    init(path: String, stallEvery: Int? = nil, stallSeconds: Double = 0) throws {
        inner = try DecoderFactory.open(path: path)
        self.stallEvery = stallEvery
        self.stallSeconds = stallSeconds
    }

    var path: String { inner.path }
    var format: AudioFormat { inner.format }
    var frameCount: Int { inner.frameCount }
    var loopRegion: Range<Int>? { inner.loopRegion }
    var skippedFrameCount: Int { inner.skippedFrameCount }

    /// Closes the gate: reads from now on wait.
    func close() { gate.withLock { $0.isClosed = true } }
    /// Opens the gate: waiting reads go on.
    func open() { gate.withLock { $0.isClosed = false } }
    /// Reads that have waited at the closed gate.
    var blockedReadCount: Int { gate.withLock { $0.blockedReadCount } }

    func read(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int {
        readCount += 1
        if let stallEvery, readCount % stallEvery == 0 {
            Thread.sleep(forTimeInterval: stallSeconds)
        }
        var counted = false
        while gate.withLock({ gate -> Bool in
            if gate.isClosed && !counted { gate.blockedReadCount += 1 }
            return gate.isClosed
        }) {
            counted = true
            Thread.sleep(forTimeInterval: 0.001)
        }
        return try inner.read(into: buffer)
    }

    func seek(toFrame frame: Int) throws {
        try inner.seek(toFrame: frame)
    }
}
