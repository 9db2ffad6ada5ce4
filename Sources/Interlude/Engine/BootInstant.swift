#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A point in time on `CLOCK_BOOTTIME`, the clock `ContinuousClock` reads on Linux (it runs on
/// through a system sleep), kept as nanoseconds.
///
/// The engine's own instants instead of `ContinuousClock`'s: its `Duration` arithmetic cost
/// the game's thread about 7 µs a reading, cold, and its code (the Swift Concurrency library's
/// clocks and the standard library's 128-bit arithmetic) about 200 KiB of resident memory in a
/// game that uses neither.
struct BootInstant: Comparable, Sendable {
    /// Nanoseconds on `CLOCK_BOOTTIME`.
    let nanoseconds: Int64

    /// Now.
    static var now: BootInstant {
        var time = timespec()
        clock_gettime(CLOCK_BOOTTIME, &time)
        return BootInstant(nanoseconds: Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec))
    }

    /// Seconds from `earlier` to this instant (negative when `earlier` is later).
    func seconds(since earlier: BootInstant) -> Double {
        Double(nanoseconds - earlier.nanoseconds) * 1e-9
    }

    /// The instant `seconds` after this one.
    func advanced(bySeconds seconds: Double) -> BootInstant {
        BootInstant(nanoseconds: nanoseconds + Int64((seconds * 1e9).rounded()))
    }

    static func < (lhs: BootInstant, rhs: BootInstant) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }
}
