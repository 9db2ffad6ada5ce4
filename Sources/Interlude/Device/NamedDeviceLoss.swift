/// What the engine does when the named device it plays to (``OutputDevice/named(_:)``)
/// disappears: headphones or a USB card unplugged, a sink removed, its server gone
/// (``SoundEngine/Configuration/whenNamedDeviceDisappears``). Either way the loss interrupts
/// the session (reason ``InterruptionReason/deviceLost``) until a device is rebuilt, with every
/// voice, stream and position kept.
public enum NamedDeviceLoss: Sendable, Equatable {
    /// Wait for it (the default): the reopen tries open that same device again (100 ms doubling
    /// to 2 s), silent until it is back, and the engine rebuilds there. The player chose it.
    case waitForIt
    /// Follow the system default: the reopen tries open ``OutputDevice/systemDefault`` from then
    /// on, and once the engine is rebuilt there, ``DeviceEvent/routeChanged(from:to:)`` names the
    /// device that went and the one now played to.
    case followSystemDefault
}
