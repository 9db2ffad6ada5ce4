#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Selecting OpenAL Soft's null backend.
///
/// OpenAL Soft reads `ALSOFT_DRIVERS` once, when the process first uses it, and then keeps the
/// first backend that initialises: on a machine with ALSA installed the null backend is never
/// reached by default. So `.null` sets `ALSOFT_DRIVERS=null` before the first OpenAL call, and
/// reports clearly when OpenAL was already started with other drivers.
enum NullBackend {
    /// The device name OpenAL Soft's null backend gives its only device.
    static let deviceName = "No Output"

    /// Set once Interlude has made its first OpenAL call in this process.
    static let openALStarted = Atomic<Bool>(false)

    /// Call before any OpenAL call: makes the null backend the one OpenAL Soft will use, when it
    /// still can. Returns false if OpenAL has already started with other drivers.
    static func select() -> Bool {
        if openALStarted.load(ordering: .acquiring) {
            return getenv("ALSOFT_DRIVERS").map { String(cString: $0) } == "null"
        }
        setenv("ALSOFT_DRIVERS", "null", 1)
        return true
    }

    /// Records that OpenAL has been used, so later null-backend requests can be told apart.
    static func markOpenALStarted() {
        openALStarted.store(true, ordering: .releasing)
    }
}
