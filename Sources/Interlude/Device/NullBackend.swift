#if canImport(Glibc)
import Glibc
#endif
import Logging
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

    /// ``OutputDevice/systemDefaultOrNull`` made concrete, before OpenAL starts: `.null` when no
    /// default device can open (no audio server answers and no ALSA playback device can be
    /// opened by this user), `.systemDefault` otherwise. Any other output is returned as it is.
    ///
    /// The user's own `ALSOFT_DRIVERS` wins: `null` gives `.null`, any other list
    /// `.systemDefault`. Once OpenAL has started in this process its backend is fixed, so the
    /// answer follows it without probing.
    static func resolve(_ output: OutputDevice, logger: Logger) -> OutputDevice {
        guard output == .systemDefaultOrNull else { return output }
        if let drivers = getenv("ALSOFT_DRIVERS").map({ String(cString: $0) }), !drivers.isEmpty {
            return drivers == "null" ? .null : .systemDefault
        }
        if openALStarted.load(ordering: .acquiring) { return .systemDefault }
        if let card = openablePlaybackDevice() {
            logger.debug("systemDefaultOrNull: the system default (ALSA playback device \(card))")
            return .systemDefault
        }
        if AudioServerProbe.answers() {
            logger.debug("systemDefaultOrNull: the system default (an audio server answers)")
            return .systemDefault
        }
        logger.debug("systemDefaultOrNull: no audio server answers and no sound card: OpenAL Soft's null backend")
        return .null
    }

    /// The first ALSA playback device node (`/dev/snd/pcmC<card>D<device>p`) this user may open
    /// for reading and writing, or nil when there is none (no sound card, or no permission).
    private static func openablePlaybackDevice() -> String? {
        guard let folder = opendir("/dev/snd") else { return nil }
        defer { closedir(folder) }
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.hasPrefix("pcmC"), name.hasSuffix("p") else { continue }
            let path = "/dev/snd/" + name
            if access(path, R_OK | W_OK) == 0 { return path }
        }
        return nil
    }
}
