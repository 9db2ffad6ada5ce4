extension SoundEngine.Configuration {
    /// logind's interruption sources, over the system D-Bus: sleep (reason
    /// ``InterruptionReason/systemSleep``, source ``InterruptionSource/sleep``) and session
    /// switch (reason ``InterruptionReason/sessionInactive``, source
    /// ``InterruptionSource/sessionSwitch``). Each is on by default for real-time outputs and
    /// off for offline ones. With no system bus, they are off and say so once in the log.
    /// ``SoundEngine/activate()`` ends the sleep hold (a game running its code is awake), and
    /// keeps the session-switch hold while our session is still inactive.
    public struct LogindSources: Sendable, Equatable {
        /// Interrupts when the machine goes to sleep (PrepareForSleep(true)), holding a "delay"
        /// inhibitor lock so the state is saved first; after the wake, checks the device and
        /// ends with shouldResume. nil: on for real-time outputs, off for offline ones.
        public var watchesSleep: Bool?
        /// Interrupts while our login session is inactive (another user or VT has the seat),
        /// and ends with shouldResume when it is active again. nil: on for real-time outputs,
        /// off for offline ones.
        public var watchesSessionSwitch: Bool?
        /// The bus to watch, as a D-Bus address (`unix:path=/run/dbus/system_bus_socket`).
        /// nil: the system bus, found as sd_bus_open_system finds it (DBUS_SYSTEM_BUS_ADDRESS,
        /// else the well-known socket). Tests point it at a private dbus-daemon.
        public var systemBusAddress: String?

        /// Defaults: each source follows the output, on the system bus.
        public init(watchesSleep: Bool? = nil, watchesSessionSwitch: Bool? = nil, systemBusAddress: String? = nil) {
            self.watchesSleep = watchesSleep
            self.watchesSessionSwitch = watchesSessionSwitch
            self.systemBusAddress = systemBusAddress
        }

        /// The settings with the defaults decided for `output`.
        struct Resolved: Sendable {
            let watchesSleep: Bool
            let watchesSessionSwitch: Bool
            let systemBusAddress: String?
        }

        /// Decides the defaults for `output`.
        func resolved(for output: OutputDevice) -> Resolved {
            Resolved(watchesSleep: watchesSleep ?? !output.isOffline,
                     watchesSessionSwitch: watchesSessionSwitch ?? !output.isOffline,
                     systemBusAddress: systemBusAddress)
        }

        /// Throws `.invalidArgument` for an empty bus address.
        func validate() throws {
            if let systemBusAddress, systemBusAddress.isEmpty {
                throw InterludeError(.invalidArgument, "SoundEngine.Configuration.logind: systemBusAddress is empty; use nil for the system bus")
            }
        }
    }
}
