/// White noise from a 32-bit linear congruential generator (Numerical Recipes constants), so a
/// seed gives the same samples on every run and machine.
struct SeededNoise {
    private var state: UInt32

    /// Creates a generator; equal seeds give equal sequences.
    init(seed: UInt32) {
        state = seed
    }

    /// The next value, uniform in [0, 1).
    mutating func nextUnit() -> Double {
        state = state &* 1_664_525 &+ 1_013_904_223
        // The top 24 bits: an LCG's low bits have short periods.
        return Double(state >> 8) / Double(1 << 24)
    }

    /// The next sample, uniform in [-1, 1).
    mutating func nextSample() -> Float {
        Float(nextUnit() * 2 - 1)
    }

    /// `frameCount` samples of white noise.
    mutating func samples(frameCount: Int) -> [Float] {
        (0..<frameCount).map { _ in nextSample() }
    }
}
