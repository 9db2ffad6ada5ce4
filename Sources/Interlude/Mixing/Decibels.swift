#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Decibels and linear gains: the one place the conversion is written.
enum Decibels {
    /// The linear gain of `decibels` (0 dB is 1; -6 dB about 0.5).
    static func gain(of decibels: Float) -> Float {
        Float(pow(10, Double(decibels) / 20))
    }
}
