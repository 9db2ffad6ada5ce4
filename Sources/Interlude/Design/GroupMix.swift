/// What a mix snapshot does to one group at full intensity: its gain and the high-frequency
/// gain of a low-pass over its voices (and over the soundtrack, for ``GroupID/music``). At
/// intensity i each factor f acts as `1 + i x (f - 1)`.
public struct GroupMix: Sendable, Equatable {
    /// The group's gain factor, >= 0 (1: unchanged).
    public var gain: Float
    /// The high-frequency gain of a low-pass at 5 kHz, 0...1 (1: no filter).
    public var lowPassGainHF: Float

    /// A group's factors; the defaults change nothing.
    public init(gain: Float = 1, lowPassGainHF: Float = 1) {
        self.gain = gain
        self.lowPassGainHF = lowPassGainHF
    }
}
