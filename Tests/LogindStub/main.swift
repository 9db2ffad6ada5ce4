// LogindStub: launched by the logind source tests on a private system bus (DBUS_SYSTEM_BUS_ADDRESS).
// It owns org.freedesktop.login1 and answers what Interlude asks of logind:
//   Manager.Inhibit(what, who, why, mode) -> a real descriptor (a pipe's write end), so the stub
//     sees when the client closes it; GetSessionByPID(pid) and GetSession(id) -> the one session;
//   the session's org.freedesktop.DBus.Properties.Get("...Session", "Active"), and the Manager's
//   Get("...Manager", "PreparingForSleep"): false at start, or true with --preparing-for-sleep
//   (a machine that went to sleep while the client was away from the bus).
// Commands, one per line on standard input: `sleep` and `wake` emit PrepareForSleep(true/false),
// `inactive` and `active` set the session's Active property and emit PropertiesChanged, `quit`
// exits (so does the end of standard input). Standard output gets one line per fact, flushed:
//   ready | inhibit-taken <id> <what> <mode> | inhibit-released <id> <microseconds since the last
//   PrepareForSleep(true), or -1> | session-asked | active-read | preparing-read | emitted <command>
import CSystemd
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One line on standard output, written at once (FileHandle does not buffer).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func fail(_ what: String, _ result: Int32) -> Never {
    FileHandle.standardError.write(Data("LogindStub: \(what): \(String(cString: strerror(-result)))\n".utf8))
    exit(1)
}

func type(_ code: Unicode.Scalar) -> CChar { CChar(UInt8(ascii: code)) }

func monotonicMicroseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1_000
}

let managerPath = "/org/freedesktop/login1"
let managerInterface = "org.freedesktop.login1.Manager"
let sessionInterface = "org.freedesktop.login1.Session"
let sessionPath = "/org/freedesktop/login1/session/c1"

/// Everything the stub keeps; reached from the sd-bus callbacks through their userdata.
final class Stub {
    let bus: OpaquePointer
    var isActive = true
    var isPreparingForSleep = CommandLine.arguments.contains("--preparing-for-sleep")
    /// Read ends of the inhibitor pipes handed out, by id.
    var inhibitors: [(id: Int, reader: Int32)] = []
    var nextInhibitorID = 1
    var lastSleepMicroseconds: Int64?

    init(bus: OpaquePointer) { self.bus = bus }

    func readString(_ message: OpaquePointer) -> String {
        var value: UnsafePointer<CChar>?
        guard sd_bus_message_read_basic(message, type("s"), &value) > 0, let value else { return "" }
        return String(cString: value)
    }

    func reply(to call: OpaquePointer, _ fill: (OpaquePointer) -> Int32) -> Int32 {
        var reply: OpaquePointer?
        var result = sd_bus_message_new_method_return(call, &reply)
        guard result >= 0, let reply else { return result }
        defer { sd_bus_message_unref(reply) }
        result = fill(reply)
        guard result >= 0 else { return result }
        return sd_bus_send(bus, reply, nil)
    }

    func replyObjectPath(to call: OpaquePointer) -> Int32 {
        say("session-asked")
        return reply(to: call) { reply in sessionPath.withCString { sd_bus_message_append_basic(reply, type("o"), $0) } }
    }

    /// Replies to a Properties.Get with a boolean.
    func replyBoolean(to call: OpaquePointer, _ boolean: Bool) -> Int32 {
        let result = reply(to: call) { reply in
            var value: Int32 = boolean ? 1 : 0
            var result = sd_bus_message_open_container(reply, type("v"), "b")
            if result >= 0 { result = sd_bus_message_append_basic(reply, type("b"), &value) }
            if result >= 0 { result = sd_bus_message_close_container(reply) }
            return result
        }
        return result < 0 ? result : 1
    }

    func manager(_ message: OpaquePointer) -> Int32 {
        if sd_bus_message_is_method_call(message, "org.freedesktop.DBus.Properties", "Get") > 0 {
            let interface = readString(message), name = readString(message)
            guard interface == managerInterface, name == "PreparingForSleep" else { return 0 }
            say("preparing-read")
            return replyBoolean(to: message, isPreparingForSleep)
        }
        if sd_bus_message_is_method_call(message, managerInterface, "Inhibit") > 0 {
            let what = readString(message), _ = readString(message), _ = readString(message), mode = readString(message)
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else { return -errno }
            let id = nextInhibitorID
            nextInhibitorID += 1
            let result = reply(to: message) { reply in
                var writer = ends[1]
                return sd_bus_message_append_basic(reply, type("h"), &writer)
            }
            // The message keeps its own copy until sent: ours goes now, so the pipe hangs up
            // exactly when the client closes its copy.
            close(ends[1])
            inhibitors.append((id, ends[0]))
            say("inhibit-taken \(id) \(what) \(mode)")
            return result < 0 ? result : 1
        }
        if sd_bus_message_is_method_call(message, managerInterface, "GetSessionByPID") > 0
            || sd_bus_message_is_method_call(message, managerInterface, "GetSession") > 0 {
            let result = replyObjectPath(to: message)
            return result < 0 ? result : 1
        }
        return 0
    }

    func session(_ message: OpaquePointer) -> Int32 {
        guard sd_bus_message_is_method_call(message, "org.freedesktop.DBus.Properties", "Get") > 0 else { return 0 }
        let interface = readString(message), name = readString(message)
        guard interface == sessionInterface, name == "Active" else { return 0 }
        say("active-read")
        return replyBoolean(to: message, isActive)
    }

    func emitPrepareForSleep(_ sleeping: Bool) {
        var signal: OpaquePointer?
        guard sd_bus_message_new_signal(bus, &signal, managerPath, managerInterface, "PrepareForSleep") >= 0, let signal else { return }
        defer { sd_bus_message_unref(signal) }
        var value: Int32 = sleeping ? 1 : 0
        sd_bus_message_append_basic(signal, type("b"), &value)
        if sleeping { lastSleepMicroseconds = monotonicMicroseconds() }
        isPreparingForSleep = sleeping
        sd_bus_send(bus, signal, nil)
    }

    func setActive(_ active: Bool) {
        isActive = active
        var signal: OpaquePointer?
        guard sd_bus_message_new_signal(bus, &signal, sessionPath, "org.freedesktop.DBus.Properties", "PropertiesChanged") >= 0,
              let signal else { return }
        defer { sd_bus_message_unref(signal) }
        sessionInterface.withCString { _ = sd_bus_message_append_basic(signal, type("s"), $0) }
        sd_bus_message_open_container(signal, type("a"), "{sv}")
        sd_bus_message_open_container(signal, type("e"), "sv")
        "Active".withCString { _ = sd_bus_message_append_basic(signal, type("s"), $0) }
        sd_bus_message_open_container(signal, type("v"), "b")
        var value: Int32 = active ? 1 : 0
        sd_bus_message_append_basic(signal, type("b"), &value)
        sd_bus_message_close_container(signal)
        sd_bus_message_close_container(signal)
        sd_bus_message_close_container(signal)
        sd_bus_message_open_container(signal, type("a"), "s")
        sd_bus_message_close_container(signal)
        sd_bus_send(bus, signal, nil)
    }

    /// Reports the inhibitors whose every write end is closed.
    func checkInhibitors(_ readable: Set<Int32>) {
        for inhibitor in inhibitors where readable.contains(inhibitor.reader) {
            var byte: UInt8 = 0
            guard read(inhibitor.reader, &byte, 1) == 0 else { continue }
            let elapsed = lastSleepMicroseconds.map { monotonicMicroseconds() - $0 } ?? -1
            close(inhibitor.reader)
            say("inhibit-released \(inhibitor.id) \(elapsed)")
        }
        inhibitors.removeAll { readable.contains($0.reader) }
    }

    func command(_ line: String) -> Bool {
        switch line {
        case "sleep": emitPrepareForSleep(true)
        case "wake": emitPrepareForSleep(false)
        case "inactive": setActive(false)
        case "active": setActive(true)
        case "quit": return false
        default:
            FileHandle.standardError.write(Data("LogindStub: unknown command \(line)\n".utf8))
            return true
        }
        say("emitted \(line)")
        return true
    }
}

// The bus's socket may exist a moment before it accepts: try for a while.
var opened: OpaquePointer?
var result: Int32 = 0
for _ in 0..<200 {
    result = sd_bus_open_system(&opened)
    if result >= 0 { break }
    usleep(50_000)
}
guard result >= 0, let bus = opened else { fail("system bus", result) }
let stub = Stub(bus: bus)
let context = Unmanaged.passUnretained(stub).toOpaque()
result = sd_bus_add_object(bus, nil, managerPath, { message, context, _ in
    guard let message, let context else { return 0 }
    return Unmanaged<Stub>.fromOpaque(context).takeUnretainedValue().manager(message)
}, context)
guard result >= 0 else { fail("manager object", result) }
result = sd_bus_add_object(bus, nil, sessionPath, { message, context, _ in
    guard let message, let context else { return 0 }
    return Unmanaged<Stub>.fromOpaque(context).takeUnretainedValue().session(message)
}, context)
guard result >= 0 else { fail("session object", result) }
result = sd_bus_request_name(bus, "org.freedesktop.login1", 0)
guard result >= 0 else { fail("requesting org.freedesktop.login1", result) }
say("ready")

var input: [UInt8] = []
loop: while true {
    while true {
        result = sd_bus_process(bus, nil)
        guard result >= 0 else { fail("processing", result) }
        if result == 0 { break }
    }
    var descriptors = [pollfd(fd: sd_bus_get_fd(bus), events: Int16(truncatingIfNeeded: sd_bus_get_events(bus)), revents: 0),
                       pollfd(fd: 0, events: Int16(POLLIN), revents: 0)]
    descriptors += stub.inhibitors.map { pollfd(fd: $0.reader, events: Int16(POLLIN), revents: 0) }
    guard poll(&descriptors, nfds_t(descriptors.count), 1_000) >= 0 || errno == EINTR else { fail("poll", -errno) }
    stub.checkInhibitors(Set(descriptors.dropFirst(2).filter { $0.revents != 0 }.map(\.fd)))
    guard descriptors[1].revents != 0 else { continue }
    var chunk = [UInt8](repeating: 0, count: 256)
    let count = read(0, &chunk, chunk.count)
    guard count > 0 else { break }
    input += chunk[0..<count]
    while let newline = input.firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: input[..<newline], as: UTF8.self).trimmingCharacters(in: .whitespaces)
        input.removeSubrange(...newline)
        if !line.isEmpty && !stub.command(line) { break loop }
    }
}
sd_bus_flush_close_unref(bus)
exit(0)
