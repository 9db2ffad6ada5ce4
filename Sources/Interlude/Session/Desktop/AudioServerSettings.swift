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
        /// ``callResponse`` may duck instead.
        public var interruptingRoles: Set<String> = ["phone"]
        /// What a phone stream does to the game.
        public enum CallResponse: Sendable, Equatable {
            /// The session is interrupted, held by ``InterruptionSource/phoneStream``, while the
            /// call lasts.
            case interrupt
            /// `group` is lowered by `byDecibels` while the call lasts, ramping down over
            /// `attackSeconds` and back over `releaseSeconds` (as module-role-ducking does on
            /// the server); the session stays active and everything keeps playing.
            case duck(group: GroupID = .master, byDecibels: Float = 12, attackSeconds: Double = 0.1, releaseSeconds: Double = 0.5)
        }

        /// What a phone stream does: interrupt (the default) or duck.
        public var callResponse: CallResponse = .interrupt
        /// When the server mutes the engine's own stream (module-role-cork's policy corks by
        /// muting), the session is held by ``InterruptionSource/phoneStream`` too, until the
        /// server unmutes it.
        public var followsServerMute = true
        /// The server's death is a device loss at once, without waiting for OpenAL's
        /// ALC_CONNECTED to go false, and a server that comes back gets the device rebuilt at
        /// once, without waiting out a reopen backoff step.
        public var detectsServerLoss = true

        /// On ``OutputDevice/systemDefault``, playback moves to the server's new default sink
        /// when it changes (headphones plugged in, a choice in the desktop's sound settings),
        /// with every voice, stream and position kept, and
        /// ``DeviceEvent/routeChanged(from:to:)`` says so. A named device stays put.
        ///
        /// The server moves the engine's own stream, which carries on where it was: when the
        /// process's first engine plays to the system default with this on, OpenAL Soft is
        /// configured with `[pulse] allow-moves = true` (unless an alsoft.conf of the user's sets
        /// `allow-moves` itself). Where the server may not move the stream (the user said
        /// `allow-moves = false`, or OpenAL Soft started before the engine), the engine opens a
        /// new device on the new default and rebuilds on it instead, which leaves a gap.
        public var followsDefaultSink = true

        /// The defaults: phone streams interrupt, server loss and the default sink are followed, on
        /// real-time outputs.
        public init() {}

        /// Whether the connection runs for an engine on `output`.
        func isOn(for output: OutputDevice) -> Bool {
            isEnabled ?? !output.isOffline
        }

        /// Whether OpenAL Soft should let the server move the stream of an engine on `output`:
        /// only to follow the default sink, so a named device stays where it was opened and its
        /// going is a loss ``NamedDeviceLoss`` handles, not a move the engine would not see
        /// (false writes `allow-moves = false` for 1.20 and later, whose default is true).
        func letsServerMoveStream(on output: OutputDevice) -> Bool {
            output == .systemDefault && followsDefaultSink && isOn(for: output)
        }

        /// Throws `.invalidArgument` for an empty role name or a bad ducking.
        func validate(in call: String) throws {
            if interruptingRoles.contains("") {
                throw InterludeError(.invalidArgument, "\(call): audioServer.interruptingRoles has an empty role name")
            }
            if case .duck(_, let decibels, let attackSeconds, let releaseSeconds) = callResponse {
                guard decibels.isFinite, decibels >= 0 else {
                    throw InterludeError(.invalidArgument, "\(call): audioServer.callResponse ducks by \(decibels) dB; it must be a finite number >= 0")
                }
                try Validate.seconds(attackSeconds, "audioServer.callResponse attack", in: call)
                try Validate.seconds(releaseSeconds, "audioServer.callResponse release", in: call)
            }
        }
    }
}
