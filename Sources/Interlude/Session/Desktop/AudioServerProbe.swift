import CDesktopLibraries

/// Whether an audio server (PulseAudio, or PipeWire through pipewire-pulse) answers now: one
/// libpulse connection, made and closed on the calling thread, to the server libpulse's own rules
/// name (PULSE_SERVER, client.conf, the user's runtime folder), the server OpenAL Soft's
/// PulseAudio backend would reach. It starts no server (no autospawn) and logs nothing.
enum AudioServerProbe {
    /// How long a server that accepts the connection may take to get it ready. A missing server
    /// refuses at once; only one that accepts and then stalls (frozen, overloaded) costs this.
    static let timeoutSeconds = 2.0

    /// True once a connection gets ready within ``timeoutSeconds``; false when it fails or
    /// times out.
    static func answers() -> Bool {
        guard AudioServerPresence.mayAnswer(), let pa = try? DesktopLibraries.pulse(), let mainloop = pa.mainloop_new() else { return false }
        defer { pa.mainloop_free(mainloop) }
        guard let context = pa.context_new(pa.mainloop_get_api(mainloop), "Interlude output probe") else { return false }
        defer {
            pa.context_disconnect(context)
            pa.context_unref(context)
        }
        guard pa.context_connect(context, nil, PA_CONTEXT_NOAUTOSPAWN, nil) >= 0 else { return false }
        let deadline = BootInstant.now.advanced(bySeconds: timeoutSeconds)
        while BootInstant.now < deadline {
            switch pa.context_get_state(context) {
            case PA_CONTEXT_READY: return true
            case PA_CONTEXT_FAILED, PA_CONTEXT_TERMINATED: return false
            default: break
            }
            // One main-loop iteration, waiting at most 50 ms for the server.
            guard pa.mainloop_prepare(mainloop, 50_000) >= 0, pa.mainloop_poll(mainloop) >= 0,
                  pa.mainloop_dispatch(mainloop) >= 0 else { return false }
        }
        return false
    }
}
