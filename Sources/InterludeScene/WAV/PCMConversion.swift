#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Conversions between Interlude's float samples and integer PCM.
public enum PCMConversion {
    /// Converts a float sample in [-1, 1] to 16-bit PCM, clipping what lies outside; NaN gives 0.
    ///
    /// Scales by 32768 and rounds to nearest-even with `lrintf`, the same as libvorbisfile's
    /// `ov_read`, so our 16-bit output matches `oggdec` and other libvorbis-based tools.
    /// Safe to call from any thread.
    @inlinable
    public static func int16(fromFloat sample: Float) -> Int16 {
        let scaled = sample * 32768
        if scaled.isNaN { return 0 }
        // Clip before lrintf: beyond the range of long (infinity, say) it returns LONG_MIN,
        // which would turn a positive overload into full negative scale.
        return Int16(lrintf(min(max(scaled, -32768), 32767)))
    }
}
