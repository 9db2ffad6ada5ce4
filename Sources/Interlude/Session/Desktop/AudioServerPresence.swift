#if canImport(Glibc)
import Glibc
#endif

/// Whether an audio server may answer, asked without libpulse, so that a machine with none never
/// loads it (see ``DesktopLibraries``). Yes when any of the places libpulse finds a server in
/// names one: PULSE_SERVER; a client.conf with a `default-server`; the native socket in
/// PULSE_RUNTIME_PATH, in XDG_RUNTIME_DIR/pulse (where PulseAudio and pipewire-pulse put it), or
/// the system-wide one in /run/pulse; or when libpulse is mapped already (OpenAL Soft's
/// PulseAudio backend found a server by its own rules). A server reachable only through the X11
/// display's PULSE_SERVER property is seen in that last way, when the output plays to it.
enum AudioServerPresence {
    /// The places a server's socket lives, for this process's environment.
    static func socketPaths() -> [String] {
        var paths: [String] = []
        if let runtime = environment("PULSE_RUNTIME_PATH") { paths.append(runtime + "/native") }
        if let xdg = environment("XDG_RUNTIME_DIR") { paths.append(xdg + "/pulse/native") }
        paths.append("/run/pulse/native")
        return paths
    }

    /// The client.conf files libpulse reads, for this process's environment.
    static func clientConfigPaths() -> [String] {
        if let named = environment("PULSE_CLIENTCONFIG") { return [named] }
        var paths = ["/etc/pulse/client.conf"]
        if let config = environment("XDG_CONFIG_HOME") ?? environment("HOME").map({ $0 + "/.config" }) {
            paths.append(config + "/pulse/client.conf")
        }
        return paths
    }

    /// True when a server may answer: worth loading libpulse and connecting.
    static func mayAnswer() -> Bool {
        if environment("PULSE_SERVER") != nil || DesktopLibraries.isPulseLoaded { return true }
        if socketPaths().contains(where: { access($0, F_OK) == 0 }) { return true }
        return clientConfigPaths().contains(where: namesDefaultServer)
    }

    /// True when a PipeWire server's own socket may answer: the one PIPEWIRE_REMOTE names (a
    /// path, or a name in the runtime folder), or `pipewire-0` in PIPEWIRE_RUNTIME_DIR,
    /// XDG_RUNTIME_DIR or USERPROFILE, the first of them set, as libpipewire looks.
    static func pipeWireMayAnswer() -> Bool {
        let remote = environment("PIPEWIRE_REMOTE") ?? "pipewire-0"
        if remote.hasPrefix("/") { return access(remote, F_OK) == 0 }
        guard let folder = environment("PIPEWIRE_RUNTIME_DIR") ?? environment("XDG_RUNTIME_DIR") ?? environment("USERPROFILE") else {
            return false
        }
        return access(folder + "/" + remote, F_OK) == 0
    }

    /// Whether the client.conf at `path` sets `default-server` (a missing file does not).
    static func namesDefaultServer(_ path: String) -> Bool {
        guard let file = fopen(path, "r") else { return false }
        defer { fclose(file) }
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, file) >= 0, let line {
            let text = String(cString: line).drop { $0 == " " || $0 == "\t" }
            if text.hasPrefix("default-server") { return true }
        }
        return false
    }

    /// A variable of the environment, nil when unset or empty.
    private static func environment(_ name: String) -> String? {
        guard let value = getenv(name), value.pointee != 0 else { return nil }
        return String(cString: value)
    }
}
