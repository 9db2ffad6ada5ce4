@testable import Interlude

/// An offline engine rendered one update at a time, so that a test can tell which update raised
/// an event and hear the audio around it.
enum UpdateRender {
    /// One update of the default 10 ms interval at the stream tests' rate.
    static let updateFrames = StreamTone.sampleRate / 100

    /// Renders `updates` updates, one per call: the samples, and each update's events.
    static func byUpdate(_ engine: SoundEngine, _ log: SessionEventLog, updates: Int) throws -> (samples: [Float], events: [[EngineEvent]]) {
        var samples: [Float] = []
        var events: [[EngineEvent]] = []
        for _ in 0..<updates {
            samples += try engine.render(frameCount: updateFrames)
            events.append(log.take())
        }
        return (samples, events)
    }
}
