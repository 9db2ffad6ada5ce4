#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import Interlude

/// The server and OpenAL Soft backend a server test runs on, one of the stacks of docs/stacks.md's
/// table: PulseAudio, PipeWire through pipewire-pulse, or PipeWire through 1.22's native backend.
enum ServerKind: String, CaseIterable, CustomTestStringConvertible {
    case pulseAudio, pipeWirePulse, pipeWireNative
    var testDescription: String { rawValue }

    /// The stack-table route this kind is.
    var route: StackCell.Route {
        switch self {
        case .pulseAudio: .pulseAudio
        case .pipeWirePulse: .pipeWirePulse
        case .pipeWireNative: .pipeWireNative
        }
    }
}

/// A private server of one ``ServerKind``, started, with the environment a probe plays to it in.
/// Stopped when released.
final class ServerUnderTest {
    let server: any PrivateAudioServer
    /// What a probe needs to play to the server through the kind's backend.
    let clientEnvironment: [String: String]
    private let pulse: PrivatePulseServer?
    private let pipeWire: PrivatePipeWireServer?

    private init(server: any PrivateAudioServer, clientEnvironment: [String: String], pulse: PrivatePulseServer?, pipeWire: PrivatePipeWireServer?) {
        self.server = server
        self.clientEnvironment = clientEnvironment
        self.pulse = pulse
        self.pipeWire = pipeWire
    }

    deinit {
        pulse?.stop()
        pipeWire?.stop()
    }

    /// Starts a server of `kind`. Nil, with the reason printed under `label`, where the loaded
    /// OpenAL Soft has no native PipeWire backend (1.19): the pipewire-pulse case runs instead.
    static func start(_ kind: ServerKind, label: String) throws -> ServerUnderTest? {
        switch kind {
        case .pulseAudio:
            guard PrivatePulseServer.isInstalled else {
                throw TestFailure("pulseaudio / pulseaudio-utils are not installed (scripts/install-deps.sh installs them)")
            }
            let server = try PrivatePulseServer()
            try server.start()
            return ServerUnderTest(server: server, clientEnvironment: server.clientEnvironment, pulse: server, pipeWire: nil)
        case .pipeWirePulse, .pipeWireNative:
            guard PrivatePipeWireServer.isInstalled else {
                throw TestFailure("pipewire, pipewire-pulse, wireplumber or dbus-daemon is not installed (scripts/install-deps.sh installs them)")
            }
            guard kind == .pipeWirePulse || ALLibrary.hasPipeWireBackend else {
                print("\(label) not run on the native PipeWire backend: \(OpenALStack.name) has none (it came in 1.22); the pulse case runs over pipewire-pulse")
                return nil
            }
            let server = try PrivatePipeWireServer()
            try server.start()
            return ServerUnderTest(server: server, clientEnvironment: kind == .pipeWireNative ? server.nativeClientEnvironment : server.clientEnvironment,
                                   pulse: nil, pipeWire: server)
        }
    }

    /// The server's processes while they run: PulseAudio's, or PipeWire's, WirePlumber's and
    /// pipewire-pulse's.
    var pids: [pid_t] { pulse?.pid.map { [$0] } ?? pipeWire?.daemonPIDs ?? [] }
}
