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

    /// The channel counts the engine plays: mono and stereo.
    static let supportedChannelCounts = 1...2
    /// The sample rates the engine plays, in hertz (OpenAL Soft resamples any of them).
    static let supportedSampleRates = 1_000...384_000

    /// Throws `.unsupportedFormat`, naming `call`, for a format no sound or stream may have.
    func checkSupported(in call: @autoclosure () -> String) throws {
        guard Self.supportedChannelCounts.contains(channelCount), Self.supportedSampleRates.contains(sampleRate) else {
            throw InterludeError(.unsupportedFormat, "\(call()): \(channelCount) channels at \(sampleRate) Hz is not supported (1 or 2 channels, 1000...384000 Hz)")
        }
    }
}
