/// Renders an offline engine's output for ``SoundEngine/render(frameCount:into:)``: stretch by
/// stretch up to each update, each stretch under the engine lock, decoding the next update's
/// stream chunks off it in between, so another thread's call waits at most one update interval.
final class OfflineRenderer: Sendable {
    private let lock: EngineLock
    /// The core's decode worker, which the render drives from its own thread.
    private let decodeWorker: DecodeWorker
    private let isOffline: Bool
    /// Held by a render for its whole length: it releases the engine lock between update
    /// intervals (to decode), and another thread's render must not take its place there.
    private let renderTurn = AnnotatedMutex<Void>(())

    init(lock: EngineLock, decodeWorker: DecodeWorker, isOffline: Bool) {
        self.lock = lock
        self.decodeWorker = decodeWorker
        self.isOffline = isOffline
    }

    /// Renders the next `frameCount` frames into `samples` (see
    /// ``SoundEngine/render(frameCount:into:)``), delivering the events raised when it ends.
    func render(frameCount: Int, into samples: inout [Float]) throws {
        guard isOffline else {
            throw InterludeError(.invalidArgument, "render(frameCount:): the engine is not offline; use OutputDevice.offline")
        }
        guard frameCount >= 0 else {
            throw InterludeError(.invalidArgument, "render(frameCount:): frameCount must be >= 0, got \(frameCount)")
        }
        // Events raised during the render reach the game once, when it ends, after the turn:
        // a handler may then call the engine, and sees the render's events in order.
        var raised: [EngineEvent] = []
        defer { lock.deliver(raised) }
        try renderTurn.withLock { _ in
            try render(frameCount: frameCount, into: &samples, gathering: &raised)
        }
    }

    /// The body of ``render(frameCount:into:)``, in the render's turn: stretch by stretch, each
    /// under the engine lock, decoding off it in between.
    private func render(frameCount: Int, into samples: inout [Float], gathering raised: inout [EngineEvent]) throws {
        guard let output = try withRenderingCore("render(frameCount:)", gathering: &raised, { core -> OutputDevice? in
            // The current format: switchDevice(to:) may have moved to another offline format.
            let output = core.device.currentOutput
            return output.isOffline ? output : nil
        }), case .offline(_, let channelCount) = output else {
            samples.removeAll(keepingCapacity: true)
            return
        }
        let sampleCount = frameCount * channelCount
        if samples.count != sampleCount {
            // Only a new size is filled first (in the capacity it has): the render writes
            // every sample.
            samples.removeAll(keepingCapacity: true)
            samples.append(contentsOf: repeatElement(0, count: sampleCount))
        }
        try samples.withUnsafeMutableBufferPointer { samples in
            guard let base = samples.baseAddress else { return }
            var renderedFrames = 0
            while renderedFrames < frameCount {
                // Off the lock: the next update's chunks, decoded here rather than by the decode
                // thread in parallel (see DecodeWorker).
                decodeWorker.decodeOnCallingThread()
                renderedFrames += try withRenderingCore("render(frameCount:)", gathering: &raised) { core -> Int in
                    // A switch to another format from another thread mid-render: the rest of
                    // this render is silence in the format it began in.
                    guard core.device.currentOutput == output else {
                        (base + renderedFrames * channelCount).update(repeating: 0, count: (frameCount - renderedFrames) * channelCount)
                        return frameCount - renderedFrames
                    }
                    return core.renderStretch(into: base + renderedFrames * channelCount, frameCount: frameCount - renderedFrames,
                                              channelCount: channelCount)
                }
            }
        }
    }

    /// Like ``withCore(_:_:)`` for one stretch of a render: the events it raised are added to
    /// `raised`, which the render delivers when it ends.
    private func withRenderingCore<Result>(_ call: @autoclosure () -> String, gathering raised: inout [EngineEvent],
                                           _ body: (EngineCore) throws -> Result) throws -> Result {
        let (result, stretchEvents) = try lock.callCore(call(), body)
        if let stretchEvents { raised += stretchEvents }
        return result
    }
}
