#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Conversions between Interlude's float samples and integer PCM.
public enum PCMConversion {
    /// Converts a float sample in [-1, 1] to 16-bit PCM, clipping what lies outside.
    ///
    /// Scales by 32768 and rounds to nearest-even with `lrintf`, the same as libvorbisfile's
    /// `ov_read`, so our 16-bit output matches `oggdec` and other libvorbis-based tools.
    /// Safe to call from any thread.
    @inlinable
    public static func int16(fromFloat sample: Float) -> Int16 {
        Int16(clamping: lrintf(sample * 32768))
    }
}
