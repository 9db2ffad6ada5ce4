#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// What the session-source tests need of a private audio server, PulseAudio's or PipeWire's.
protocol PrivateAudioServer: AnyObject {
    /// The server's folder: its sockets, logs, and the tests' own files.
    var folder: URL { get }
    /// What a client needs to reach this server and nothing else.
    var clientEnvironment: [String: String] { get }
    /// Starts `parecord` on `device` (a sink's monitor), writing a WAV file.
    func record(to file: URL, device: String) throws -> ChildProcess
    /// Runs `pactl` against this server and returns its output.
    func pactl(_ arguments: [String]) throws -> String
}

extension PrivatePulseServer: PrivateAudioServer {}
extension PrivatePipeWireServer: PrivateAudioServer {}

/// A recording of one sink's monitor on a private server, into `<name>.wav` in the server's
/// folder. ``finish()`` stops the recorder (SIGINT: it finishes the WAV header) and reads it; a
/// recording released unfinished (a failed test) stops its recorder too.
final class MonitorRecording {
    let file: URL
    private let recorder: ChildProcess

    /// Starts recording `sink`'s monitor.
    init(_ server: any PrivateAudioServer, name: String, sink: String = "spk") throws {
        file = server.folder.appendingPathComponent("\(name).wav")
        recorder = try server.record(to: file, device: "\(sink).monitor")
    }

    deinit {
        PrivatePulseServer.stopRecorder(recorder)
    }

    /// Stops the recorder and reads what it recorded.
    func finish() throws -> SweepRecording {
        PrivatePulseServer.stopRecorder(recorder)
        return try SweepRecording(contentsOf: file)
    }
}
