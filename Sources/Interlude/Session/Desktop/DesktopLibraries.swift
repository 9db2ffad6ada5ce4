import CDesktopLibraries

/// libpulse and sd-bus, loaded the first time a desktop source needs them rather than linked:
/// a game on a machine with neither an audio server nor a system bus never maps them (about
/// 3 MiB resident with what they pull in), and one without the libraries still plays.
enum DesktopLibraries {
    /// libpulse's functions; throws `.deviceUnavailable`, naming the library and what is
    /// missing, when it cannot be loaded.
    static func pulse() throws -> ILPulseFunctions {
        guard let functions = il_pulse_functions() else {
            throw InterludeError(.deviceUnavailable, il_pulse_error().map { String(cString: $0) } ?? "libpulse.so.0 could not be loaded")
        }
        return functions.pointee
    }

    /// sd-bus's functions, as ``pulse()``.
    static func systemd() throws -> ILSystemdFunctions {
        guard let functions = il_systemd_functions() else {
            throw InterludeError(.deviceUnavailable, il_systemd_error().map { String(cString: $0) } ?? "libsystemd.so.0 could not be loaded")
        }
        return functions.pointee
    }

    /// Whether libpulse is mapped in this process already (OpenAL Soft's PulseAudio backend
    /// loads it when it plays to a server), asked without loading it.
    static var isPulseLoaded: Bool { il_pulse_is_loaded() != 0 }
}
