import Foundation
import Testing

/// A detached tmux session on a private server (its own socket name), for driving terminal
/// programs as a person would: send keys, read the screen. The server is killed on close.
final class TmuxSession {
    private let socketName = "interlude-test-\(UUID().uuidString.prefix(8))"
    let name = "main"

    /// Starts `command` (a shell command line) in a `columns` x `rows` terminal.
    init(command: String, columns: Int = 100, rows: Int = 30, environment: [String: String] = [:]) throws {
        let exports = environment.map { "export \($0.key)='\($0.value)'; " }.joined()
        try tmux(["new-session", "-d", "-s", name, "-x", "\(columns)", "-y", "\(rows)", "\(exports)\(command); sleep 60"])
    }

    deinit {
        _ = try? tmux(["kill-server"])
    }

    /// Types `keys` (tmux key names: "i", "Left", "C-c").
    func send(_ keys: String...) throws {
        try tmux(["send-keys", "-t", name] + keys)
    }

    /// The screen as text.
    func screen() throws -> String {
        try tmux(["capture-pane", "-p", "-t", name])
    }

    /// Polls the screen until `condition` holds, or fails the test after `seconds`.
    @discardableResult
    func waitForScreen(timeoutSeconds seconds: Double = 20, _ what: String, _ condition: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var last = ""
        while Date() < deadline {
            last = try screen()
            if condition(last) { return last }
            Thread.sleep(forTimeInterval: 0.05)
        }
        Issue.record("timed out waiting for \(what); the screen was:\n\(last)")
        return last
    }

    /// Runs tmux through ``ChildProcess`` (Foundation's Process never reaps its children under
    /// the test runner). Only capture-pane's output is read: the first command forks the tmux
    /// server, which would keep an inherited pipe open for good.
    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        let command = ["/usr/bin/tmux", "-L", socketName] + arguments
        let environment = ProcessInfo.processInfo.environment
        guard arguments.first == "capture-pane" else {
            let child = try ChildProcess(command, environment: environment)
            child.waitForExit(timeoutSeconds: 10)
            return ""
        }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw TestFailure("pipe: \(String(cString: strerror(errno)))") }
        let child = try ChildProcess(command, environment: environment, stdout: fds[1])
        close(fds[1])
        let output = FileHandle(fileDescriptor: fds[0], closeOnDealloc: true).readDataToEndOfFile()
        child.waitForExit(timeoutSeconds: 10)
        return String(decoding: output, as: UTF8.self)
    }
}
