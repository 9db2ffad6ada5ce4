import Foundation
@_spi(Tools) import Interlude
import Synchronization

/// A real decoder (the bench's Ogg track, opened by `DecoderFactory`) whose reads stall like a
/// slow disk's: the first read at or after each stall time sleeps `stallSeconds` before it
/// reads. The first stall falls `firstAfterSeconds` after the open, the next ones
/// `everySeconds` after the one before ended, at most `stallLimit` in all. Read by the engine's decode thread (scenario 16 plays in real time); the game thread only asks ``isStalling``.
final class StallingDecoder: AudioDecoder, @unchecked Sendable {
    private let inner: any AudioDecoder
    private let everySeconds: Double
    private let stallSeconds: Double
    private let stallLimit: Int
    private let stalling = Atomic<Bool>(false)
    private let stalls = Atomic<Int>(0)
    /// When the next stall is due (the first counts from the open). Touched by the decode
    /// thread only, after the open.
    private var nextStallSeconds: Double

    init(path: String, firstAfterSeconds: Double, everySeconds: Double, stallSeconds: Double, stallLimit: Int) throws {
        inner = try DecoderFactory.open(path: path)
        self.everySeconds = everySeconds
        self.stallSeconds = stallSeconds
        self.stallLimit = stallLimit
        nextStallSeconds = Measure.wallSeconds() + firstAfterSeconds
    }

    var path: String { inner.path }
    var format: AudioFormat { inner.format }
    var frameCount: Int { inner.frameCount }
    var loopRegion: Range<Int>? { inner.loopRegion }

    /// A read is stalled right now.
    var isStalling: Bool { stalling.load(ordering: .acquiring) }
    /// Stalls so far.
    var stallCount: Int { stalls.load(ordering: .acquiring) }

    func read(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int {
        if Measure.wallSeconds() >= nextStallSeconds, stallCount < stallLimit {
            stalling.store(true, ordering: .releasing)
            Thread.sleep(forTimeInterval: stallSeconds)
            stalling.store(false, ordering: .releasing)
            _ = stalls.wrappingAdd(1, ordering: .acquiringAndReleasing)
            nextStallSeconds = Measure.wallSeconds() + everySeconds
        }
        return try inner.read(into: buffer)
    }

    func seek(toFrame frame: Int) throws {
        try inner.seek(toFrame: frame)
    }
}
