#if canImport(Glibc)
import Glibc
#endif

/// Gives OpenAL Soft 1.19 an ``OutputLatency``'s period size and count, says whether the audio
/// server may move our stream (`allow-moves`), and keeps 1.22 and later from trying a PipeWire
/// server that is not there (`drivers`), through a configuration file of the process's own.
///
/// 1.19 ignores ALC_REFRESH on a playback device (measured: asked for 100 or 25 updates a
/// second, the PulseAudio device kept 46); only `period_size` and `periods` in its
/// configuration files set them. Its PulseAudio backend makes every stream with
/// PA_STREAM_DONT_MOVE unless `[pulse] allow-moves` is true, so the server cannot move it to a
/// new default sink; 1.20 and later default to true, so the server moves a named device's
/// stream to another sink when that device disappears, and the engine never sees the loss
/// ``NamedDeviceLoss`` acts on: there, a stream that must stay gets `allow-moves = false`. It
/// reads its files once per process, at its first call. So, before
/// Interlude's first OpenAL call, this writes a configuration file for the process and points
/// ALSOFT_CONF at it; once the first device has opened (OpenAL has read it), ALSOFT_CONF is put
/// back as it was and the file removed, so child processes see the user's own setting. A child
/// started while that first device opens inherits the generated file: one that plays through
/// OpenAL should be given the user's environment, not the process's of that moment.
///
/// The user's configuration is kept:
/// - When a file OpenAL Soft reads (/etc/openal/alsoft.conf, the XDG config folders'
///   alsoft.conf, ~/.alsoftrc, ALSOFT_CONF) sets `period_size` or `periods`, Interlude writes
///   no period; when one sets `allow-moves`, Interlude writes no `allow-moves`: the user's choice
///   wins.
/// - A file the user named in ALSOFT_CONF is copied into the generated one after Interlude's
///   lines (in `[general]`, as its own first lines expect), so everything in it still applies.
enum OpenALConfigFile {
    /// What a ``prepare(_:allowsMoves:)`` wrote.
    struct Written: Equatable {
        /// The latency's periods.
        var periods = false
        /// `[pulse] allow-moves = true`.
        var allowsMoves = false
        /// `[pulse] allow-moves = false` (for 1.20 and later, whose default is true).
        var forbidsMoves = false
        /// A `drivers` list without the native PipeWire backend.
        var skipsPipeWire = false
    }

    /// The backends of OpenAL Soft 1.22 and later in their own order (1.24.2's alc.cpp), less
    /// `pipewire` and the two that never play to a listener (`null`, `wave`): a name the
    /// library was built without is passed over.
    static let driversWithoutPipeWire = "pulse,wasapi,core,oboe,opensl,alsa,solaris,sndio,oss,dsound,winmm,port,sdl3,sdl2,jack,otherio"

    // AnnotatedMutex, not Mutex: engines are made from many threads at once, and ThreadSanitizer
    // cannot see Mutex synchronize (CI's TSan pass reported these two as races).
    private static let generatedPath = AnnotatedMutex<String?>(nil)
    private static let userValue = AnnotatedMutex<String?>(nil)

    /// Call before the first OpenAL call of the process, with the `latency` to apply (nil: none)
    /// and whether the server may move the stream (false: it must stay on the device it was
    /// opened on, whichever the library's default). Returns what was written: nothing when
    /// OpenAL has already started (the first engine's setting stays), for what the user
    /// configured themselves, or when the file cannot be written (logged by the caller).
    static func prepare(_ latency: OutputLatency?, allowsMoves: Bool) -> Written {
        guard !NullBackend.openALStarted.load(ordering: .acquiring) else { return Written() }
        let userKeys = userConfigurationKeys()
        var written = Written()
        written.periods = latency != nil && userKeys.isDisjoint(with: ["period_size", "periods"])
        written.allowsMoves = allowsMoves && !userKeys.contains("allow-moves")
        written.forbidsMoves = !allowsMoves && ALLibrary.movesStreamsByDefault && !userKeys.contains("allow-moves")
        written.skipsPipeWire = skipsPipeWire(userKeys: userKeys)
        guard written.periods || written.allowsMoves || written.forbidsMoves || written.skipsPipeWire else { return Written() }
        let user = environment("ALSOFT_CONF")
        let userText = user.flatMap(FileBytes.read) ?? []
        var lines = ["# Written by Interlude for process \(getpid())."]
        if written.allowsMoves {
            lines += ["[pulse]", "# 1.19 sets PA_STREAM_DONT_MOVE by default.", "allow-moves = true"]
        } else if written.forbidsMoves {
            lines += ["[pulse]", "# 1.20 and later let the server move the stream by default.", "allow-moves = false"]
        }
        lines.append("[general]")
        if written.skipsPipeWire {
            lines += ["# No PipeWire server to connect to.", "drivers = \(driversWithoutPipeWire)"]
        }
        if written.periods, let latency {
            lines += ["# OutputLatency.\(latency.rawValue)", "period_size = \(latency.periodFrames)", "periods = \(latency.periodCount)"]
        }
        guard let path = writeTemporaryFile(Array((lines.joined(separator: "\n") + "\n\n").utf8) + userText) else { return Written() }
        userValue.withLock { $0 = user }
        generatedPath.withLock { $0 = path }
        setenv("ALSOFT_CONF", path, 1)
        return written
    }

    /// Whether to leave the native PipeWire backend out (OpenAL Soft 1.22 and later): only when
    /// no PipeWire server's socket exists, so the backend could not connect anyway, and neither
    /// ALSOFT_DRIVERS nor a configuration file of the user's names the drivers. Left in, its
    /// failed connection prints "Failed to connect PipeWire event context" on stderr at the
    /// process's first OpenAL call, a line no player can act on.
    private static func skipsPipeWire(userKeys: Set<String>) -> Bool {
        ALLibrary.hasPipeWireBackend && getenv("ALSOFT_DRIVERS") == nil && !userKeys.contains("drivers")
            && !AudioServerPresence.pipeWireMayAnswer()
    }

    /// Call once a device has opened: OpenAL has read its configuration. Puts ALSOFT_CONF back
    /// and removes the generated file. Does nothing when ``prepare(_:allowsMoves:)`` wrote none.
    static func finish() {
        guard let path = generatedPath.withLock({ path in defer { path = nil }; return path }) else { return }
        if let user = userValue.withLock({ $0 }) {
            setenv("ALSOFT_CONF", user, 1)
        } else {
            unsetenv("ALSOFT_CONF")
        }
        unlink(path)
    }

    /// The keys set in the configuration files OpenAL Soft 1.19 reads, in any section.
    static func userConfigurationKeys() -> Set<String> {
        let home = environment("HOME") ?? ""
        let configDirectories = (environment("XDG_CONFIG_DIRS") ?? "/etc/xdg").split(separator: ":").map(String.init)
        var files = ["/etc/openal/alsoft.conf"] + configDirectories.map { "\($0)/alsoft.conf" }
        files.append("\(home)/.alsoftrc")
        files.append("\(environment("XDG_CONFIG_HOME") ?? "\(home)/.config")/alsoft.conf")
        if let user = environment("ALSOFT_CONF") { files.append(user) }
        var keys: Set<String> = []
        for path in files {
            guard let bytes = FileBytes.read(path) else { continue }
            keys.formUnion(Self.keys(in: bytes))
        }
        return keys
    }

    /// The keys a configuration file's `text` sets: on each line with a `=`, what comes before
    /// it, without the blanks around it, unless the line is a comment. Scanned as bytes, not
    /// Characters: the system's commented alsoft.conf alone cost an engine's start 15 million
    /// instructions as Characters.
    static func keys(in text: [UInt8]) -> Set<String> {
        text.withUnsafeBufferPointer { bytes in
            var keys: Set<String> = []
            var lineStart = 0
            while lineStart < bytes.count {
                let rest = UnsafeBufferPointer(rebasing: bytes[lineStart...])
                let lineEnd = rest.firstIndex(of: UInt8(ascii: "\n")).map { lineStart + $0 } ?? bytes.count
                if let key = Self.key(in: UnsafeBufferPointer(rebasing: bytes[lineStart..<lineEnd])) { keys.insert(key) }
                lineStart = lineEnd + 1
            }
            return keys
        }
    }

    /// The key one line sets, or nil for a comment or a line without one.
    private static func key(in line: UnsafeBufferPointer<UInt8>) -> String? {
        guard let equals = line.firstIndex(of: UInt8(ascii: "=")) else { return nil }
        let isBlank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }
        var first = 0
        while first < equals && isBlank(line[first]) { first += 1 }
        var end = equals
        while end > first && isBlank(line[end - 1]) { end -= 1 }
        guard first < end, line[first] != UInt8(ascii: "#") else { return nil }
        return String(decoding: UnsafeBufferPointer(rebasing: line[first..<end]), as: UTF8.self)
    }

    // POSIX calls, not FoundationEssentials: this runs at every engine's start, and ProcessInfo's
    // copy of the environment, URL parsing and Data cost more code and time than what they do here.

    /// An environment variable, or nil when unset.
    private static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// Writes `bytes` to a new file of this process's own, readable by it alone, and returns
    /// its path; nil when no folder takes it. First in /dev/shm, a file system in memory: the
    /// file lives for the first open's milliseconds, and made on a disk it slowed the engine's
    /// start. Where /dev/shm refuses it (missing, full, or a sandbox's policy), in TMPDIR, then /tmp.
    private static func writeTemporaryFile(_ bytes: [UInt8]) -> String? {
        let folders = ["/dev/shm", environment("TMPDIR").flatMap { $0.isEmpty ? nil : $0 }, "/tmp"].compactMap { $0 }
        for folder in folders {
            if let path = writeTemporaryFile(bytes, in: folder) { return path }
        }
        return nil
    }

    /// ``writeTemporaryFile(_:)`` in one `folder`.
    private static func writeTemporaryFile(_ bytes: [UInt8], in folder: String) -> String? {
        var template = Array("\(folder.hasSuffix("/") ? folder : folder + "/")interlude-alsoft-\(getpid())-XXXXXX".utf8CString)
        let fileDescriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fileDescriptor >= 0 else { return nil }
        _ = fcntl(fileDescriptor, F_SETFD, FD_CLOEXEC)
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(fileDescriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            written += count
        }
        guard close(fileDescriptor) == 0, written == bytes.count else {
            unlink(path)
            return nil
        }
        return path
    }
}
