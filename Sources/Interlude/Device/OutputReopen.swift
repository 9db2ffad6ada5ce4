/// A move of the engine's open device to the system's default output in place (OpenAL Soft
/// 1.22 and later, ALC_SOFT_reopen_device): taken from ``DeviceHost`` under the engine lock,
/// run off it, and handed back to ``DeviceHost/reopened(_:succeeded:seconds:)``, which keeps it
/// only if the device is still the one open.
final class OutputReopen: @unchecked Sendable {
    /// The device being moved; compared by identity when the move is handed back.
    let device: ALDevice
    private let call: ALDevice.Reopen

    init(device: ALDevice, call: ALDevice.Reopen) {
        self.device = device
        self.call = call
    }

    /// Runs the move off the engine lock; returns whether the new output opened.
    func run() -> Bool { call.run() }
}
