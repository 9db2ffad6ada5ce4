#if canImport(Glibc)
import Glibc
#endif

/// What the OpenAL Soft library loaded in this process offers, asked before its first call:
/// the engine links libopenal.so.1, and which release answers (1.19 or 1.22 and later) is decided
/// at run time. Looking a symbol up starts nothing in the library.
enum ALLibrary {
    /// The release that came with the native PipeWire backend, which it tries before PulseAudio.
    static let pipeWireBackendRelease = ALRelease(major: 1, minor: 22, patch: 0)

    /// Whether the library has a native PipeWire backend (1.22 and later). Read off the mapped
    /// library file's name (``fileRelease``). Where the name carries no release, the library's
    /// exports decide: `alGetBufferPtrSOFT` (AL_SOFT_callback_buffer as 1.22 finished it) is
    /// exported by 1.22 and later, not by 1.19. `alcReopenDeviceSOFT`, which came with the
    /// backend, is not exported at all (only `alcGetProcAddress` gives it, and that starts the
    /// library): looking it up read 1.24.2 as having no PipeWire backend.
    static let hasPipeWireBackend: Bool = fileRelease.map { $0 >= pipeWireBackendRelease } ?? exports("alGetBufferPtrSOFT")

    /// The release in the name of the libopenal file mapped in this process
    /// (`libopenal.so.1.24.2` is 1.24.2; the soname, libopenal.so.1, is a link to it), read from
    /// /proc/self/maps. nil when none is mapped, or its name carries no release.
    static let fileRelease: ALRelease? = {
        guard let path = mappedPath else { return nil }
        let prefix = "libopenal.so."
        guard let name = path.split(separator: "/").last, name.hasPrefix(prefix) else { return nil }
        let numbers = name.dropFirst(prefix.count).split(separator: ".").map { Int($0) }
        guard numbers.count >= 3, let major = numbers[numbers.count - 3], let minor = numbers[numbers.count - 2],
              let patch = numbers[numbers.count - 1], major == 1 else { return nil }
        return ALRelease(major: major, minor: minor, patch: patch)
    }()

    /// The path of the libopenal file mapped in this process (nil when none is).
    static let mappedPath: String? = {
        let descriptor = open("/proc/self/maps", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var block = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = block.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += block[..<count]
        }
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            guard let slash = line.firstIndex(of: UInt8(ascii: "/")) else { continue }
            let path = String(decoding: line[slash...], as: UTF8.self)
            if path.split(separator: "/").last?.hasPrefix("libopenal.so") == true { return path }
        }
        return nil
    }()

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
