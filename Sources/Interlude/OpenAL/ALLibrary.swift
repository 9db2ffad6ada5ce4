#if canImport(Glibc)
import Glibc
#endif

/// What the OpenAL Soft library loaded in this process offers, asked before its first call:
/// the engine links libopenal.so.1, and which release answers (1.19 or 1.22 and later) is decided
/// at run time. Looking a symbol up starts nothing in the library.
enum ALLibrary {
    /// Whether the library may have a native PipeWire backend, which it tries before
    /// PulseAudio (1.22 and later). Extension functions are not all exported; the nearest
    /// that is, `alBufferCallbackSOFT` (AL_SOFT_callback_buffer), came in 1.21, so a 1.21
    /// library answers yes too.
    static let hasPipeWireBackend: Bool = exports("alBufferCallbackSOFT")

    /// Whether the process's OpenAL exports `name`.
    private static func exports(_ name: String) -> Bool {
        guard let process = dlopen(nil, RTLD_NOW) else { return false }
        return dlsym(process, name) != nil
    }
}

/// An OpenAL Soft release, as `alGetString(AL_VERSION)` names it ("1.1 ALSOFT 1.24.2").
struct ALRelease: Comparable, CustomStringConvertible {
    var major: Int
    var minor: Int
    var patch: Int

    /// Since 1.20 a voice that is paused or stopped fades out over the next mix's first 64
    /// frames, and one that resumes mid-sound fades in (the mixer's de-click ramps).
    static let deClickRamps = ALRelease(major: 1, minor: 20, patch: 0)

    init(major: Int, minor: Int, patch: Int) {
        self.major = major
        self.minor = minor
        self.patch = patch
    }

    /// The release in an AL_VERSION string, or nil when it names none.
    init?(versionString: String) {
        guard let word = versionString.split(separator: " ").last else { return nil }
        let numbers = word.split(separator: ".").map { Int($0.prefix { $0.isNumber }) }
        guard numbers.count >= 2, let major = numbers[0], let minor = numbers[1] else { return nil }
        self.init(major: major, minor: minor, patch: numbers.count > 2 ? numbers[2] ?? 0 : 0)
    }

    static func < (left: ALRelease, right: ALRelease) -> Bool {
        (left.major, left.minor, left.patch) < (right.major, right.minor, right.patch)
    }

    var description: String { "\(major).\(minor).\(patch)" }
}
