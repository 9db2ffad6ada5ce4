import Foundation
@_spi(Tools) @testable import Interlude

/// A real decoder (a file opened by `DecoderFactory`) that counts the frames it read on one
/// watched thread and on any other, for tests of which thread decodes a stream.
final class ThreadRecordingDecoder: AudioDecoder, @unchecked Sendable {
    /// Frames read since ``watchCallingThread()``: on that thread, and on any other.
    struct Tally: Equatable {
        var onWatchedThread = 0
        var elsewhere = 0
    }

    private struct State {
        var watched: pthread_t?
        var tally = Tally()
    }

    private let inner: any AudioDecoder
    private let state = AnnotatedMutex(State())

    init(path: String) throws {
        inner = try DecoderFactory.open(path: path)
    }

    var path: String { inner.path }
    var format: AudioFormat { inner.format }
    var frameCount: Int { inner.frameCount }

    /// Starts counting, from zero, with the calling thread as the watched one.
    func watchCallingThread() {
        let current = pthread_self()
        state.withLock { $0 = State(watched: current) }
    }

    /// What was read since ``watchCallingThread()``.
    var framesRead: Tally { state.withLock { $0.tally } }

    func read(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int {
        let frames = try inner.read(into: buffer)
        let current = pthread_self()
        state.withLock { state in
            guard let watched = state.watched else { return }
            if pthread_equal(watched, current) != 0 {
                state.tally.onWatchedThread += frames
            } else {
                state.tally.elsewhere += frames
            }
        }
        return frames
    }

    func seek(toFrame frame: Int) throws {
        try inner.seek(toFrame: frame)
    }
}
