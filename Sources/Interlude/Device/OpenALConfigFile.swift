#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Gives OpenAL Soft 1.19 an ``OutputLatency``'s period size and count.
///
/// 1.19 ignores ALC_REFRESH on a playback device (measured: asked for 100 or 25 updates a
/// second, the PulseAudio device kept 46); only `period_size` and `periods` in its
/// configuration files set them, and it reads those once per process, at its first call. So,
/// before Interlude's first OpenAL call, this writes a configuration file for the process and
/// points ALSOFT_CONF at it; once the first device has opened (OpenAL has read it), ALSOFT_CONF
/// is put back as it was and the file removed, so child processes see the user's own setting.
///
/// The user's configuration is kept:
/// - When a file OpenAL Soft reads (/etc/openal/alsoft.conf, the XDG config folders'
///   alsoft.conf, ~/.alsoftrc) sets `period_size` or `periods`, nothing is written: the user's
///   choice wins.
/// - A file the user named in ALSOFT_CONF is copied into the generated one after Interlude's
///   `[general]` lines, so everything in it still applies, and its own keys win.
enum OpenALConfigFile {
    // AnnotatedMutex, not Mutex: engines are made from many threads at once, and ThreadSanitizer
    // cannot see Mutex synchronize (CI's TSan pass reported these two as races).
    private static let generatedPath = AnnotatedMutex<String?>(nil)
    private static let userValue = AnnotatedMutex<String?>(nil)

    /// Call before the first OpenAL call of the process. Returns false when OpenAL has already
    /// started (the first engine's setting stays), when the user configured periods
    /// themselves, or when the file cannot be written (logged by the caller).
    static func prepare(_ latency: OutputLatency) -> Bool {
        guard !NullBackend.openALStarted.load(ordering: .acquiring) else { return false }
        guard !userConfigurationSetsPeriods() else { return false }
        let user = getenv("ALSOFT_CONF").map { String(cString: $0) }
        let userText = user.flatMap { try? String(contentsOfFile: $0, encoding: .utf8) } ?? ""
        let text = """
            # Written by Interlude for process \(getpid()): OutputLatency.\(latency.rawValue).
            [general]
            period_size = \(latency.periodFrames)
            periods = \(latency.periodCount)

            """ + userText
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("interlude-alsoft-\(getpid()).conf").path
        guard (try? text.write(toFile: path, atomically: true, encoding: .utf8)) != nil else { return false }
        userValue.withLock { $0 = user }
        generatedPath.withLock { $0 = path }
        setenv("ALSOFT_CONF", path, 1)
        return true
    }

    /// Call once a device has opened: OpenAL has read its configuration. Puts ALSOFT_CONF back
    /// and removes the generated file. Does nothing when ``prepare(_:)`` wrote none.
    static func finish() {
        guard let path = generatedPath.withLock({ path in defer { path = nil }; return path }) else { return }
        if let user = userValue.withLock({ $0 }) {
            setenv("ALSOFT_CONF", user, 1)
        } else {
            unsetenv("ALSOFT_CONF")
        }
        unlink(path)
    }

    /// Whether a configuration file OpenAL Soft 1.19 reads sets `period_size` or `periods`.
    static func userConfigurationSetsPeriods() -> Bool {
        let environment = ProcessInfo.processInfo.environment
        let home = environment["HOME"] ?? ""
        let configDirectories = (environment["XDG_CONFIG_DIRS"] ?? "/etc/xdg").split(separator: ":").map(String.init)
        var files = ["/etc/openal/alsoft.conf"] + configDirectories.map { "\($0)/alsoft.conf" }
        files.append("\(home)/.alsoftrc")
        files.append("\(environment["XDG_CONFIG_HOME"] ?? "\(home)/.config")/alsoft.conf")
        if let user = environment["ALSOFT_CONF"] { files.append(user) }
        return files.contains { path in
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return false }
            return text.split(separator: "\n").contains { line in
                let key = line.split(separator: "=", maxSplits: 1).first?.trimmingCharacters(in: .whitespaces) ?? ""
                return key == "period_size" || key == "periods"
            }
        }
    }
}
