/// The engine's random numbers: SplitMix64 (Steele, Lea and Flood, "Fast splittable
/// pseudorandom number generators", OOPSLA 2014; the constants of Vigna's reference code).
///
/// Chosen because it is tiny, fast, passes BigCrush, and is pure 64-bit integer arithmetic:
/// the same seed gives the same numbers on every platform and every run, so an offline render
/// is byte-identical for a seed (``SoundEngine/Configuration/seed``). The engine owns one and
/// draws from it only under its lock, in a fixed order per cue play (variant, gain, pitch).
struct SeededRandom {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A number in [0, 1): the top 53 bits, so every value is an exact double.
    mutating func unitInterval() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// An index in 0..<count (count > 0): the high word of a 64 x 64-bit product (Lemire's
    /// method without its rejection step, biased by at most count / 2^64).
    mutating func index(below count: Int) -> Int {
        Int(UInt64(count).multipliedFullWidth(by: next()).high)
    }

    /// A value drawn uniformly from `range`; one draw even when the range is a single value,
    /// so the order of draws never depends on the ranges.
    mutating func value(in range: ClosedRange<Float>) -> Float {
        let unit = unitInterval()
        let low = Double(range.lowerBound)
        return min(range.upperBound, Float(low + unit * (Double(range.upperBound) - low)))
    }
}
