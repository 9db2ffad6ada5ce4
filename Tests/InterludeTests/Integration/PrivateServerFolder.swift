#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A fresh temporary folder for a private audio server and its clients: private (0700)
/// subfolders to serve as HOME and runtime folders, and a libpulse client.conf that never
/// autospawns a server. Removed with the object, after the server that owns it has stopped.
final class PrivateServerFolder: Sendable {
    let url: URL

    /// Makes `interlude-<kind>-<pid>-<random>` in the temporary folder, with `subfolders`.
    init(kind: String, subfolders: [String]) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("interlude-\(kind)-\(getpid())-\(UUID().uuidString.prefix(8))")
        for name in subfolders {
            try FileManager.default.createDirectory(at: url.appendingPathComponent(name), withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
        try "autospawn = no\n".write(to: url.appendingPathComponent("client.conf"), atomically: true, encoding: .utf8)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// The path of `name` inside the folder.
    func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    /// The client.conf libpulse clients are pointed at (PULSE_CLIENTCONFIG).
    var clientConfigPath: String { path("client.conf") }

    /// Runs a short tool (`pactl`) with `environment`, its standard output going to a file in
    /// this folder, and returns that output; a tool still running after 5 s is killed.
    func runTool(_ arguments: [String], environment: [String: String]) throws -> String {
        let output = url.appendingPathComponent("\(arguments[0]).out")
        let descriptor = open(output.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        let tool = try ChildProcess(arguments, environment: environment, stdout: descriptor)
        close(descriptor)
        if !tool.waitForExit(timeoutSeconds: 5) { tool.stop(SIGKILL) }
        return (try? String(contentsOf: output, encoding: .utf8)) ?? ""
    }
}
