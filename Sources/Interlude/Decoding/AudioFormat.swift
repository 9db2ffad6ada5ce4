/// The shape of decoded PCM: frames per second and interleaved channels per frame.
/// Decoded samples are always 32-bit float in [-1, 1].
public struct AudioFormat: Sendable, Equatable, Hashable, Codable {
    /// Frames per second.
    public var sampleRate: Int
    /// Interleaved channels per frame: 1 (mono) or 2 (stereo).
    public var channelCount: Int

    /// Creates a format.
    public init(sampleRate: Int, channelCount: Int) {
        self.sampleRate = sampleRate
        self.channelCount = channelCount
    }
}
