/// A loaded sound's samples as the engine keeps them in Swift, when it keeps them: always for a
/// sound made from samples or a game's decoder, and for a file sound only until its first
/// upload (see ``SoundBank``). Thread-safe: a device being prepared off the engine lock reads
/// them while the engine may drop them.
final class KeptSamples: Sendable {
    private let samples: AnnotatedMutex<SoundSamples?>

    init(_ samples: SoundSamples?) {
        self.samples = AnnotatedMutex(samples)
    }

    /// The samples, or nil once dropped.
    var current: SoundSamples? { samples.withLock { $0 } }

    /// Lets the samples go: OpenAL's buffer holds them, and the file gives them again.
    func drop() { samples.withLock { $0 = nil } }

    /// Keeps `kept` again: read back from a device about to close that the next lacks.
    func restore(_ kept: SoundSamples) { samples.withLock { $0 = kept } }
}
