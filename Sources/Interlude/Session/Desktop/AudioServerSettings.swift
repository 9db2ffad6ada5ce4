extension SoundEngine.Configuration {
    /// The engine's own connection to the audio server (PulseAudio, or PipeWire through
    /// pipewire-pulse), and the interruption sources it drives: phone streams, and the server's
    /// own death and return. A machine with no server is not an error: the connection logs it
    /// once and keeps looking, and the engine plays on as configured.
    public struct AudioServer: Sendable, Equatable {
        /// Watches the server at all. nil (the default): on for real-time outputs, off for
        /// offline ones, whose renders must not depend on what the desktop is doing.
        public var isEnabled: Bool?
        /// While a stream of another program with one of these `media.role` values plays (is not
        /// corked), the session is held with reason ``InterruptionReason/call`` by source
        /// ``InterruptionSource/phoneStream``; when the last ends, that hold ends with
        /// shouldResume true. Overlapping streams make one hold. Empty: no role interrupts.
        public var interruptingRoles: Set<String> = ["phone"]
        /// When the server mutes the engine's own stream (module-role-cork's policy corks by
        /// muting), the session is held by ``InterruptionSource/phoneStream`` too, until the
        /// server unmutes it.
        public var followsServerMute = true
        /// The server's death is a device loss at once, without waiting for OpenAL's
        /// ALC_CONNECTED to go false, and a server that comes back gets the device rebuilt at
        /// once, without waiting out a reopen backoff step.
        public var detectsServerLoss = true

        /// The defaults: phone streams interrupt, server loss is followed, on real-time outputs.
        public init() {}

        /// Whether the connection runs for an engine on `output`.
        func isOn(for output: OutputDevice) -> Bool {
            isEnabled ?? !output.isOffline
        }

        /// Throws `.invalidArgument` for an empty role name.
        func validate(in call: String) throws {
            if interruptingRoles.contains("") {
                throw InterludeError(.invalidArgument, "\(call): audioServer.interruptingRoles has an empty role name")
            }
        }
    }
}
