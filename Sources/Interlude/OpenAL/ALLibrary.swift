#if canImport(Glibc)
import Glibc
#endif

/// What the OpenAL Soft library loaded in this process offers, asked before its first call:
/// the engine links libopenal.so.1, and which release answers (1.19, 1.24, ...) is decided at run
/// time. Reading the process's maps or looking a symbol up starts nothing in the library.
enum ALLibrary {
    /// The release the loaded library's file is named for, as CMake names it
    /// (`libopenal.so.1.24.2`, reached through the libopenal.so.1 link), read without starting
    /// the library; nil when the file's name carries none (a copy renamed by hand).
    static let fileRelease: ALRelease? = releaseInFileName()

    /// Whether the library has a native PipeWire backend (1.22 and later), which it tries
    /// before PulseAudio. Read from the file's name; where the name carries no release, the
    /// library's exports decide: `alGetBufferPtrSOFT` (AL_SOFT_callback_buffer as 1.22 finished
    /// it) is exported by 1.22 and later, not by 1.19. `alcReopenDeviceSOFT`, which came with the
    /// backend, is not exported at all (only `alcGetProcAddress` gives it, which starts the library).
    static let hasPipeWireBackend: Bool = fileRelease.map { $0 >= .pipeWireBackend } ?? exports("alGetBufferPtrSOFT")

    /// Whether the library's PulseAudio backend lets the server move its streams unless
    /// `[pulse] allow-moves = false` says otherwise: 1.20 and later. 1.19 sets
    /// PA_STREAM_DONT_MOVE unless `allow-moves = true`. A library whose file names no release
    /// counts as a later one: `allow-moves = false` does nothing to 1.19.
    static let movesStreamsByDefault: Bool = fileRelease.map { $0 >= .streamMovesByDefault } ?? true

    /// Whether the process's OpenAL exports `name`.
    private static func exports(_ name: String) -> Bool {
        guard let process = dlopen(nil, RTLD_NOW) else { return false }
        return dlsym(process, name) != nil
    }

    /// The release in the name of the libopenal.so file mapped into the process, as
    /// /proc/self/maps names it (the file itself, not the link it was loaded through, and the
    /// file loaded even when an upgrade has replaced it since). dladdr would say the same;
    /// Swift's Glibc module leaves it out (a GNU extension).
    private static func releaseInFileName() -> ALRelease? {
        guard var maps = FileBytes.read("/proc/self/maps") else { return nil }
        maps.append(0)
        // One strstr over the text, not a split into lines: a process's maps run to hundreds
        // of lines, and splitting them cost several times the read.
        return maps.withUnsafeBufferPointer { buffer -> ALRelease? in
            let text = UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self)
            guard let found = strstr(text, "/libopenal.so.") else { return nil }
            let start = UnsafeRawPointer(found).assumingMemoryBound(to: UInt8.self) + "/libopenal.so.".utf8.count
            var end = start
            while end.pointee != 0 && end.pointee != UInt8(ascii: "\n") { end += 1 }
            return ALRelease(dotted: String(decoding: UnsafeBufferPointer(start: start, count: end - start), as: UTF8.self))
        }
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
    /// Since 1.20 `[pulse] allow-moves` defaults to true: PulseAudio may move the stream.
    static let streamMovesByDefault = ALRelease(major: 1, minor: 20, patch: 0)
    /// The native PipeWire backend came in 1.22.
    static let pipeWireBackend = ALRelease(major: 1, minor: 22, patch: 0)

    init(major: Int, minor: Int, patch: Int) {
        self.major = major
        self.minor = minor
        self.patch = patch
    }

    /// The release in an AL_VERSION string, or nil when it names none.
    init?(versionString: String) {
        guard let word = versionString.split(separator: " ").last else { return nil }
        self.init(dotted: String(word))
    }

    /// The release a dotted word names ("1.24.2", "1.19"), or nil when it names none.
    init?(dotted word: String) {
        let numbers = word.split(separator: ".").map { Int($0.prefix { $0.isNumber }) }
        guard numbers.count >= 2, let major = numbers[0], let minor = numbers[1] else { return nil }
        self.init(major: major, minor: minor, patch: numbers.count > 2 ? numbers[2] ?? 0 : 0)
    }

    static func < (left: ALRelease, right: ALRelease) -> Bool {
        (left.major, left.minor, left.patch) < (right.major, right.minor, right.patch)
    }

    var description: String { "\(major).\(minor).\(patch)" }
}
