import COpenAL
import Dispatch

/// ALC_SOFT_system_events (OpenAL Soft 1.24 and later): the library's own word that the
/// default device changed, or a device was added or removed. 1.19 has no such extension: there
/// the engine's libpulse connection (``PulseConnection``) is what sees a new default sink.
///
/// OpenAL Soft has one event callback per process, called on its backend's thread with its
/// event lock held. The callback here only copies the event and hands it to a serial queue:
/// no engine lock, no AL call on OpenAL's thread. Listeners get the events on that queue.
enum ALSystemEvents {
    /// What happened.
    enum Kind: Sendable, Equatable {
        case defaultDeviceChanged
        case deviceAdded
        case deviceRemoved
    }

    /// One event, as OpenAL Soft reported it.
    struct Event: Sendable {
        var kind: Kind
        /// A playback device's event (else a capture device's).
        var isPlayback: Bool
        /// OpenAL Soft's message ("Default playback device changed: NAME").
        var message: String
    }

    // The extension's enums (alext.h of 1.24; 1.19's headers lack them).
    private static let playbackDevice: ALCenum = 0x19D4
    private static let defaultDeviceChangedType: ALCenum = 0x19D6
    private static let deviceAddedType: ALCenum = 0x19D7
    private static let deviceRemovedType: ALCenum = 0x19D8

    private typealias Callback = @convention(c) (ALCenum, ALCenum, OpaquePointer?, ALCsizei, UnsafePointer<ALCchar>?,
                                                 UnsafeMutableRawPointer?) -> Void
    private typealias EventControl = @convention(c) (ALCsizei, UnsafePointer<ALCenum>?, ALCboolean) -> ALCboolean
    private typealias EventCallback = @convention(c) (Callback?, UnsafeMutableRawPointer?) -> Void

    /// The listeners, by token; the callback is installed with the first.
    private static let state = AnnotatedMutex<(listeners: [Int: @Sendable (Event) -> Void], next: Int, isInstalled: Bool)>(([:], 1, false))
    private static let queue = DispatchQueue(label: "Interlude OpenAL system events")

    /// Whether the loaded library offers the extension. Ask only once OpenAL has started (after
    /// the first device opened): the first ALC call reads OpenAL Soft's configuration.
    static var isAvailable: Bool {
        alcIsExtensionPresent(nil, "ALC_SOFT_system_events") != 0
    }

    /// Starts handing the library's events to `handler`, on a serial queue of its own. Returns
    /// the token for ``stopListening(_:)``, or nil where the library lacks the extension.
    static func listen(_ handler: @escaping @Sendable (Event) -> Void) -> Int? {
        guard isAvailable,
              let controlPointer = alcGetProcAddress(nil, "alcEventControlSOFT"),
              let callbackPointer = alcGetProcAddress(nil, "alcEventCallbackSOFT") else {
            _ = alcGetError(nil)
            return nil
        }
        let control = unsafeBitCast(controlPointer, to: EventControl.self)
        let setCallback = unsafeBitCast(callbackPointer, to: EventCallback.self)
        return state.withLock { state -> Int? in
            if !state.isInstalled {
                setCallback(ALSystemEvents.receive, nil)
                let types = [defaultDeviceChangedType, deviceAddedType, deviceRemovedType]
                guard types.withUnsafeBufferPointer({ control(ALCsizei($0.count), $0.baseAddress, ALCboolean(ALC_TRUE)) }) != 0 else {
                    _ = alcGetError(nil)
                    setCallback(nil, nil)
                    return nil
                }
                state.isInstalled = true
            }
            let token = state.next
            state.next += 1
            state.listeners[token] = handler
            return token
        }
    }

    /// Stops handing events to the listener `token`. The callback stays installed (cheap, and
    /// OpenAL Soft may be calling it right now).
    static func stopListening(_ token: Int) {
        _ = state.withLock { $0.listeners.removeValue(forKey: token) }
    }

    /// OpenAL Soft's callback, on its thread: copies the event and queues it.
    private static let receive: Callback = { type, deviceType, _, length, message, _ in
        let kind: Kind
        switch type {
        case ALSystemEvents.defaultDeviceChangedType: kind = .defaultDeviceChanged
        case ALSystemEvents.deviceAddedType: kind = .deviceAdded
        case ALSystemEvents.deviceRemovedType: kind = .deviceRemoved
        default: return
        }
        let text = message.map { pointer in
            String(decoding: UnsafeRawBufferPointer(start: pointer, count: max(0, Int(length))), as: UTF8.self)
        } ?? ""
        let event = Event(kind: kind, isPlayback: deviceType == ALSystemEvents.playbackDevice, message: text)
        ALSystemEvents.queue.async {
            let listeners = ALSystemEvents.state.withLock { Array($0.listeners.values) }
            for listener in listeners { listener(event) }
        }
    }
}
