import CDesktopLibraries
#if canImport(Glibc)
import Glibc
#endif

/// One connection to the system bus, and the logind calls the session sources make on it: the
/// sleep inhibitor lock, our login session's object and its `Active` property, and the two
/// signals. sd-bus objects belong to one thread: a `LogindBus` is made, used and freed on the
/// watcher's thread only, never under the engine's lock.
final class LogindBus {
    /// What the bus said, in the order it arrived, for the watcher to act on.
    enum Signal: Equatable {
        /// Manager.PrepareForSleep: true before the machine sleeps, false after it wakes.
        case prepareForSleep(Bool)
        /// Our session's `Active` property changed.
        case sessionActive(Bool)
        /// logind took its name on the bus (it started, or restarted): what it says now may
        /// differ from what was last heard.
        case logindStarted
    }

    /// A call or the connection failed; the message says which and why.
    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    static let service = "org.freedesktop.login1"
    static let managerPath = "/org/freedesktop/login1"
    static let managerInterface = "org.freedesktop.login1.Manager"
    static let sessionInterface = "org.freedesktop.login1.Session"
    private static let propertiesInterface = "org.freedesktop.DBus.Properties"
    /// How long a call waits for logind's reply (a stop waits for a call under way).
    private static let callTimeoutMicroseconds: UInt64 = 2_000_000

    /// sd-bus, loaded when the first bus is opened.
    private let sd: ILSystemdFunctions
    /// The sd-bus connection.
    private let bus: OpaquePointer
    /// The signal matches; each passes this object to its callback, so they go first.
    private var matches: [OpaquePointer] = []
    /// Signals heard since the last ``drain()``.
    private var heard: [Signal] = []
    /// A PropertiesChanged named `Active` without its value: read it at the next drain.
    private var activeWasInvalidated = false
    /// The watched session's object path, once ``watchSession(path:)`` subscribed.
    private var sessionPath: String?

    /// The system bus's socket where DBUS_SYSTEM_BUS_ADDRESS does not name one.
    static let systemBusSocketPath = "/run/dbus/system_bus_socket"

    /// Connects to `address`, or, when nil, to the system bus as sd_bus_open_system finds it
    /// (DBUS_SYSTEM_BUS_ADDRESS, else /run/dbus/system_bus_socket). With neither, it fails
    /// before loading sd-bus, so a machine with no system bus never maps libsystemd.
    init(address: String?) throws {
        if address == nil, getenv("DBUS_SYSTEM_BUS_ADDRESS") == nil, access(Self.systemBusSocketPath, F_OK) != 0 {
            throw Failure("system bus: DBUS_SYSTEM_BUS_ADDRESS is not set and \(Self.systemBusSocketPath) does not exist")
        }
        let sd: ILSystemdFunctions
        do {
            sd = try DesktopLibraries.systemd()
        } catch {
            throw Failure("system bus: \(error)")
        }
        self.sd = sd
        var opened: OpaquePointer?
        if let address {
            try Self.check(sd.bus_new(&opened), "sd_bus_new")
            guard let opened else { throw Failure("sd_bus_new returned no bus") }
            do {
                try Self.check(sd.bus_set_address(opened, address), "system bus address \(address)")
                try Self.check(sd.bus_set_bus_client(opened, 1), "sd_bus_set_bus_client")
                try Self.check(sd.bus_start(opened), "system bus at \(address)")
            } catch {
                _ = sd.bus_unref(opened)
                throw error
            }
        } else {
            try Self.check(sd.bus_open_system(&opened), "system bus")
        }
        guard let opened else { throw Failure("sd_bus_open_system returned no bus") }
        bus = opened
    }

    deinit {
        for match in matches { _ = sd.bus_slot_unref(match) }
        _ = sd.bus_flush_close_unref(bus)
    }

    // MARK: Calls

    /// Takes a "delay" inhibitor lock on sleep: logind waits (up to its InhibitDelayMaxSec)
    /// before sleeping until the returned descriptor is closed. The caller owns it.
    func inhibitSleep(why: String) throws -> Int32 {
        let reply = try call(path: Self.managerPath, interface: Self.managerInterface, member: "Inhibit",
                             strings: ["sleep", "Interlude", why, "delay"])
        defer { _ = sd.bus_message_unref(reply) }
        var received: Int32 = -1
        try Self.check(sd.bus_message_read_basic(reply, Self.type("h"), &received), "Inhibit's reply")
        // The reply owns its descriptor: keep a copy of our own.
        let owned = fcntl(received, F_DUPFD_CLOEXEC, 3)
        guard owned >= 0 else { throw Failure("Inhibit: dup: \(String(cString: strerror(errno)))") }
        return owned
    }

    /// Our login session's object path: the session of this process (GetSessionByPID), else the
    /// one XDG_SESSION_ID names (GetSession).
    func findSessionPath() throws -> String {
        do {
            let reply = try call(path: Self.managerPath, interface: Self.managerInterface, member: "GetSessionByPID",
                                 unsignedArgument: UInt32(getpid()))
            defer { _ = sd.bus_message_unref(reply) }
            return try readObjectPath(reply, of: "GetSessionByPID")
        } catch {
            guard let id = getenv("XDG_SESSION_ID").map({ String(cString: $0) }), !id.isEmpty else { throw error }
            let reply = try call(path: Self.managerPath, interface: Self.managerInterface, member: "GetSession", strings: [id])
            defer { _ = sd.bus_message_unref(reply) }
            return try readObjectPath(reply, of: "GetSession(\(id))")
        }
    }

    /// The session's `Active` property, read now.
    func readSessionActive(path: String) throws -> Bool {
        var error = sd_bus_error()
        defer { sd.bus_error_free(&error) }
        var value: Int32 = 0
        let result = sd.bus_get_property_trivial(bus, Self.service, path, Self.sessionInterface, "Active", &error,
                                                 Self.type("b"), &value)
        guard result >= 0 else { throw Failure("\(path) Active: \(Self.describe(error, result))") }
        return value != 0
    }

    /// The Manager's `PreparingForSleep` property, read now: true between PrepareForSleep(true)
    /// and the wake. A watcher that was away from the bus learns the machine's state from it.
    func readPreparingForSleep() throws -> Bool {
        var error = sd_bus_error()
        defer { sd.bus_error_free(&error) }
        var value: Int32 = 0
        let result = sd.bus_get_property_trivial(bus, Self.service, Self.managerPath, Self.managerInterface, "PreparingForSleep",
                                                 &error, Self.type("b"), &value)
        guard result >= 0 else { throw Failure("PreparingForSleep: \(Self.describe(error, result))") }
        return value != 0
    }

    // MARK: Signals

    /// Subscribes to Manager.PrepareForSleep.
    func watchSleep() throws {
        var match: OpaquePointer?
        try Self.check(sd.bus_match_signal(bus, &match, Self.service, Self.managerPath, Self.managerInterface, "PrepareForSleep", { message, context, _ in
            guard let message, let context else { return 0 }
            Unmanaged<LogindBus>.fromOpaque(context).takeUnretainedValue().receivePrepareForSleep(message)
            return 0
        }, Unmanaged.passUnretained(self).toOpaque()), "watching PrepareForSleep")
        if let match { matches.append(match) }
    }

    /// Subscribes to logind taking its name on the bus (the bus daemon's NameOwnerChanged).
    func watchLogindStart() throws {
        var match: OpaquePointer?
        let rule = "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',interface='org.freedesktop.DBus',"
            + "member='NameOwnerChanged',arg0='\(Self.service)'"
        try Self.check(sd.bus_add_match(bus, &match, rule, { message, context, _ in
            guard let message, let context else { return 0 }
            Unmanaged<LogindBus>.fromOpaque(context).takeUnretainedValue().receiveNameOwnerChanged(message)
            return 0
        }, Unmanaged.passUnretained(self).toOpaque()), "watching logind's name")
        if let match { matches.append(match) }
    }

    /// Subscribes to the session's PropertiesChanged.
    func watchSession(path: String) throws {
        var match: OpaquePointer?
        try Self.check(sd.bus_match_signal(bus, &match, Self.service, path, Self.propertiesInterface, "PropertiesChanged", { message, context, _ in
            guard let message, let context else { return 0 }
            Unmanaged<LogindBus>.fromOpaque(context).takeUnretainedValue().receivePropertiesChanged(message)
            return 0
        }, Unmanaged.passUnretained(self).toOpaque()), "watching \(path)")
        if let match { matches.append(match) }
        sessionPath = path
    }

    /// Reads and dispatches everything that arrived, and returns the signals heard, in order.
    /// Throws when the connection is gone.
    func drain() throws -> [Signal] {
        while true {
            let result = sd.bus_process(bus, nil)
            try Self.check(result, "system bus")
            if result == 0 { break }
        }
        guard sd.bus_is_open(bus) > 0 else { throw Failure("system bus: the connection closed") }
        if activeWasInvalidated, let sessionPath {
            activeWasInvalidated = false
            heard.append(.sessionActive(try readSessionActive(path: sessionPath)))
        }
        defer { heard.removeAll() }
        return heard
    }

    /// The descriptor to poll and for what, and how long until sd-bus needs ``drain()`` again
    /// (nil: no deadline).
    var pollRequest: (descriptor: Int32, events: Int16, timeoutMilliseconds: Int32?) {
        var deadline: UInt64 = 0
        var timeout: Int32?
        if sd.bus_get_timeout(bus, &deadline) >= 0, deadline != UInt64.max {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let nowMicroseconds = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1_000
            timeout = deadline > nowMicroseconds ? Int32(min((deadline - nowMicroseconds + 999) / 1_000, 60_000)) : 0
        }
        return (sd.bus_get_fd(bus), Int16(truncatingIfNeeded: sd.bus_get_events(bus)), timeout)
    }

    // MARK: Inside

    private func receivePrepareForSleep(_ message: OpaquePointer) {
        var value: Int32 = 0
        if sd.bus_message_read_basic(message, Self.type("b"), &value) > 0 {
            heard.append(.prepareForSleep(value != 0))
        }
    }

    /// NameOwnerChanged is "sss": the name, its old owner, its new owner ("" when it went).
    private func receiveNameOwnerChanged(_ message: OpaquePointer) {
        var name: UnsafePointer<CChar>?, newOwner: UnsafePointer<CChar>?
        guard sd.bus_message_read_basic(message, Self.type("s"), &name) > 0,
              sd.bus_message_skip(message, "s") >= 0,
              sd.bus_message_read_basic(message, Self.type("s"), &newOwner) > 0,
              let name, String(cString: name) == Self.service, let newOwner, newOwner.pointee != 0 else { return }
        heard.append(.logindStarted)
    }

    /// PropertiesChanged is "sa{sv}as": the interface, the changed values, the names changed
    /// without a value.
    private func receivePropertiesChanged(_ message: OpaquePointer) {
        var interface: UnsafePointer<CChar>?
        guard sd.bus_message_read_basic(message, Self.type("s"), &interface) > 0, let interface,
              String(cString: interface) == Self.sessionInterface,
              sd.bus_message_enter_container(message, Self.type("a"), "{sv}") > 0 else { return }
        while sd.bus_message_enter_container(message, Self.type("e"), "sv") > 0 {
            var name: UnsafePointer<CChar>?
            guard sd.bus_message_read_basic(message, Self.type("s"), &name) > 0, let name else { return }
            if String(cString: name) == "Active", sd.bus_message_enter_container(message, Self.type("v"), "b") > 0 {
                var value: Int32 = 0
                if sd.bus_message_read_basic(message, Self.type("b"), &value) > 0 { heard.append(.sessionActive(value != 0)) }
                _ = sd.bus_message_exit_container(message)
            } else {
                _ = sd.bus_message_skip(message, "v")
            }
            _ = sd.bus_message_exit_container(message)
        }
        _ = sd.bus_message_exit_container(message)
        guard sd.bus_message_enter_container(message, Self.type("a"), "s") > 0 else { return }
        var name: UnsafePointer<CChar>?
        while sd.bus_message_read_basic(message, Self.type("s"), &name) > 0 {
            if let name, String(cString: name) == "Active" { activeWasInvalidated = true }
        }
        _ = sd.bus_message_exit_container(message)
    }

    /// Calls logind and waits for the reply, which the caller unrefs.
    private func call(path: String, interface: String, member: String, strings: [String] = [],
                      unsignedArgument: UInt32? = nil) throws -> OpaquePointer {
        var message: OpaquePointer?
        try Self.check(sd.bus_message_new_method_call(bus, &message, Self.service, path, interface, member), member)
        defer { _ = sd.bus_message_unref(message) }
        for string in strings {
            try Self.check(string.withCString { sd.bus_message_append_basic(message, Self.type("s"), $0) }, member)
        }
        if var unsignedArgument {
            try Self.check(sd.bus_message_append_basic(message, Self.type("u"), &unsignedArgument), member)
        }
        var error = sd_bus_error()
        defer { sd.bus_error_free(&error) }
        var reply: OpaquePointer?
        let result = sd.bus_call(bus, message, Self.callTimeoutMicroseconds, &error, &reply)
        guard result >= 0, let reply else { throw Failure("\(interface).\(member): \(Self.describe(error, result))") }
        return reply
    }

    private func readObjectPath(_ reply: OpaquePointer, of call: String) throws -> String {
        var path: UnsafePointer<CChar>?
        try Self.check(sd.bus_message_read_basic(reply, Self.type("o"), &path), "\(call)'s reply")
        guard let path else { throw Failure("\(call) returned no object path") }
        return String(cString: path)
    }

    @discardableResult
    private static func check(_ result: Int32, _ what: @autoclosure () -> String) throws -> Int32 {
        guard result >= 0 else { throw Failure("\(what()): \(String(cString: strerror(-result)))") }
        return result
    }

    private static func describe(_ error: sd_bus_error, _ result: Int32) -> String {
        if let message = error.message { return String(cString: message) }
        if let name = error.name { return String(cString: name) }
        return String(cString: strerror(-result))
    }

    /// A D-Bus type code as sd-bus takes it.
    private static func type(_ code: Unicode.Scalar) -> CChar {
        CChar(UInt8(ascii: code))
    }
}
