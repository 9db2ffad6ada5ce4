#if canImport(Glibc)
import Glibc
#endif
import Foundation
@testable import Interlude
import Synchronization

/// A child process started with posix_spawn and reaped with waitpid by PID. Foundation's
/// Process is not used: under the test runner its exit monitoring never fired (children stayed
/// zombies and waitUntilExit hung), and a child inherits the spawning thread's blocked signals,
/// which would keep SIGINT and SIGTERM from parecord, pulseaudio and the probe. Here the child
/// starts with an empty signal mask and default handlers, and with no descriptor of the test
/// process but the three it is given: tests run in parallel, and a long-lived child (a tmux
/// server, a PulseAudio server, a render) that inherited another test's pipe would keep that
/// pipe's reader from ever seeing its end.
final class ChildProcess: Sendable {
    let pid: pid_t
    private let exitStatus = AnnotatedMutex<Int32?>(nil)

    /// Starts `arguments` (looked up on PATH). nil descriptors become /dev/null.
    init(_ arguments: [String], environment: [String: String], stdin: Int32? = nil, stdout: Int32? = nil, stderr: Int32? = nil) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (source, target) in [(stdin, Int32(0)), (stdout, Int32(1)), (stderr, Int32(2))] {
            if let source {
                posix_spawn_file_actions_adddup2(&actions, source, target)
            } else {
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
            }
        }
        // Every other descriptor closed in the child (the sources above included, once copied).
        guard Self.addCloseFrom(&actions, 3) == 0 else { throw TestFailure("posix_spawn_file_actions_addclosefrom_np failed") }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGPIPE, SIGCHLD, SIGHUP] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var child: pid_t = 0
        let result = posix_spawnp(&child, arguments[0], &actions, &attributes, argv, envp)
        guard result == 0 else { throw TestFailure("posix_spawnp \(arguments[0]): \(String(cString: strerror(result)))") }
        pid = child
    }

    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which its headers
    /// declare only under _GNU_SOURCE, so Swift's Glibc module does not show it.
    private static let addCloseFrom: AddCloseFrom = {
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else {
            fatalError("glibc without posix_spawn_file_actions_addclosefrom_np (2.34 or later is needed)")
        }
        return unsafeBitCast(symbol, to: AddCloseFrom.self)
    }()

    deinit {
        if isRunning {
            Glibc.kill(pid, SIGKILL)
            _ = waitForExit(timeoutSeconds: 2)
        }
    }

    /// False once the child has exited (and has been reaped).
    var isRunning: Bool {
        exitStatus.withLock { status in
            guard status == nil else { return false }
            var raw: Int32 = 0
            if waitpid(pid, &raw, WNOHANG) == pid { status = raw }
            return status == nil
        }
    }

    /// The raw wait status once exited.
    var status: Int32? { _ = isRunning; return exitStatus.withLock { $0 } }

    func send(_ signal: Int32) {
        if isRunning { Glibc.kill(pid, signal) }
    }

    /// Waits up to `timeoutSeconds` for the exit; true when it exited.
    @discardableResult
    func waitForExit(timeoutSeconds: Double) -> Bool {
        let deadline = ContinuousClock.now + .seconds(timeoutSeconds)
        while isRunning {
            if ContinuousClock.now >= deadline { return false }
            Thread.sleep(forTimeInterval: 0.002)
        }
        return true
    }

    /// Sends `signal`, waits up to `timeoutSeconds`, then SIGKILL.
    func stop(_ signal: Int32 = SIGTERM, timeoutSeconds: Double = 2) {
        send(signal)
        if !waitForExit(timeoutSeconds: timeoutSeconds) {
            Glibc.kill(pid, SIGKILL)
            waitForExit(timeoutSeconds: 5)
        }
    }
}
