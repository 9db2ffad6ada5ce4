import Foundation
@_spi(Tools) @testable import Interlude

/// A real decoder (a file opened by `DecoderFactory`) whose reads block the way a stalled disk's
/// do: while the test holds the gate closed, every read waits until it opens; with
/// `stallEvery`, every that many reads sleeps `stallSeconds` first; and with
/// `closesAfterFrames`, the gate closes by itself once that many frames were read, and opens
/// again by itself `reopensAfterSeconds` later.
final class GatedDecoder: AudioDecoder, @unchecked Sendable {
    private struct Gate {
        var isClosed = false
        /// Reads that found the gate closed and waited.
        var blockedReadCount = 0
        /// When it opens by itself, for a gate that closed by itself.
        var opensAt: ContinuousClock.Instant?
    }

    private let inner: any AudioDecoder
    private let gate = AnnotatedMutex(Gate())
    private let stallEvery: Int?
    private let stallSeconds: Double
    private let closesAfterFrames: Int?
    private let reopensAfterSeconds: Double
    /// Touched by the thread reading only (the engine never reads from two at once).
    private var readCount = 0
    private var framesRead = 0

    init(path: String, stallEvery: Int? = nil, stallSeconds: Double = 0, closesAfterFrames: Int? = nil,
         reopensAfterSeconds: Double = 0) throws {
        inner = try DecoderFactory.open(path: path)
        self.stallEvery = stallEvery
        self.stallSeconds = stallSeconds
        self.closesAfterFrames = closesAfterFrames
        self.reopensAfterSeconds = reopensAfterSeconds
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
            if let opensAt = gate.opensAt, ContinuousClock.now >= opensAt {
                gate.isClosed = false
                gate.opensAt = nil
            }
            if gate.isClosed && !counted { gate.blockedReadCount += 1 }
            return gate.isClosed
        }) {
            counted = true
            Thread.sleep(forTimeInterval: 0.001)
        }
        let frames = try inner.read(into: buffer)
        if let closesAfterFrames, framesRead < closesAfterFrames, framesRead + frames >= closesAfterFrames {
            let opensAt = ContinuousClock.now + .seconds(reopensAfterSeconds)
            gate.withLock { $0.isClosed = true; $0.opensAt = opensAt }
        }
        framesRead += frames
        return frames
    }

    func seek(toFrame frame: Int) throws {
        try inner.seek(toFrame: frame)
    }
}
