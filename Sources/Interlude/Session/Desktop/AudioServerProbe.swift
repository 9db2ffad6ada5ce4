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
        withReadyContext(timeoutSeconds: timeoutSeconds) { _, _, _ in true } ?? false
    }

    /// What the answering server says about where a new stream goes.
    struct Facts: Equatable {
        /// `pa_server_info.server_name`: "pulseaudio", or "PulseAudio (on PipeWire 0.3.65)"
        /// from pipewire-pulse.
        var serverName: String
        /// The default sink is running (`PA_SINK_RUNNING`): some stream plays on it (a recording
        /// of its monitor alone does not count).
        var defaultSinkIsRunning: Bool
        /// How far ahead the default sink renders: the larger of the latency it is configured to
        /// now (`configured_latency`) and the audio it has queued (`latency`; a null sink that was
        /// idle keeps its 2 s block for a while after a low-latency stream joins). A new stream
        /// may wait that long to be taken in. 0 when unknown.
        var defaultSinkLatencySeconds: Double
    }

    /// Asks the answering server for its ``Facts``; nil when none answers within `timeoutSeconds`.
    static func facts(timeoutSeconds: Double = timeoutSeconds) -> Facts? {
        withReadyContext(timeoutSeconds: timeoutSeconds) { pa, mainloop, context in
            final class Reply {
                var name: String?, defaultSink: String?, isRunning = false, latencySeconds = 0.0, done = false
            }
            let reply = Reply()
            let userdata = Unmanaged.passUnretained(reply).toOpaque()
            let deadline = BootInstant.now.advanced(bySeconds: timeoutSeconds)
            /// Runs the main loop until the operation's reply came; false on a failure or timeout.
            func finish(_ operation: OpaquePointer?) -> Bool {
                guard let operation else { return false }
                defer { pa.operation_unref(operation) }
                // A failed context cancels the operation without calling back: stop then.
                while !reply.done, BootInstant.now < deadline, pa.context_get_state(context) == PA_CONTEXT_READY {
                    guard iterate(pa, mainloop) else { return false }
                }
                return reply.done
            }
            guard finish(pa.context_get_server_info(context, { _, info, userdata in
                guard let userdata else { return }
                let reply = Unmanaged<Reply>.fromOpaque(userdata).takeUnretainedValue()
                reply.name = info?.pointee.server_name.map { String(cString: $0) }
                reply.defaultSink = info?.pointee.default_sink_name.map { String(cString: $0) }
                reply.done = true
            }, userdata)), let name = reply.name else { return nil }
            guard let sink = reply.defaultSink else {
                return Facts(serverName: name, defaultSinkIsRunning: false, defaultSinkLatencySeconds: 0)
            }
            reply.done = false
            // The list-style callback comes once per sink (one here) and once more at its end.
            _ = finish(pa.context_get_sink_info_by_name(context, sink, { _, info, isLast, userdata in
                guard let userdata else { return }
                let reply = Unmanaged<Reply>.fromOpaque(userdata).takeUnretainedValue()
                if let info {
                    reply.isRunning = info.pointee.state == PA_SINK_RUNNING
                    reply.latencySeconds = Double(max(info.pointee.configured_latency, info.pointee.latency)) * 1e-6
                }
                if isLast != 0 || info == nil { reply.done = true }
            }, userdata))
            return Facts(serverName: name, defaultSinkIsRunning: reply.isRunning, defaultSinkLatencySeconds: reply.latencySeconds)
        } ?? nil
    }

    /// Connects (no autospawn), waits up to `timeoutSeconds` for the context to get ready, and
    /// runs `body` on it; nil when it fails or times out. Everything is freed on return.
    private static func withReadyContext<Result>(timeoutSeconds: Double,
                                                 _ body: (ILPulseFunctions, OpaquePointer, OpaquePointer) -> Result) -> Result? {
        guard AudioServerPresence.mayAnswer(), let pa = try? DesktopLibraries.pulse(), let mainloop = pa.mainloop_new() else { return nil }
        defer { pa.mainloop_free(mainloop) }
        guard let context = pa.context_new(pa.mainloop_get_api(mainloop), "Interlude output probe") else { return nil }
        defer {
            pa.context_disconnect(context)
            pa.context_unref(context)
        }
        guard pa.context_connect(context, nil, PA_CONTEXT_NOAUTOSPAWN, nil) >= 0 else { return nil }
        let deadline = BootInstant.now.advanced(bySeconds: timeoutSeconds)
        while BootInstant.now < deadline {
            switch pa.context_get_state(context) {
            case PA_CONTEXT_READY: return body(pa, mainloop, context)
            case PA_CONTEXT_FAILED, PA_CONTEXT_TERMINATED: return nil
            default: break
            }
            guard iterate(pa, mainloop) else { return nil }
        }
        return nil
    }

    /// One main-loop iteration, waiting at most 50 ms for the server.
    private static func iterate(_ pa: ILPulseFunctions, _ mainloop: OpaquePointer) -> Bool {
        pa.mainloop_prepare(mainloop, 50_000) >= 0 && pa.mainloop_poll(mainloop) >= 0 && pa.mainloop_dispatch(mainloop) >= 0
    }
}
