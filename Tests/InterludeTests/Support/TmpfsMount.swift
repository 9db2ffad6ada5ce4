#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A private tmpfs mounted on a scratch folder, to meet real file-system faults: a tiny one
/// filled up gives ENOSPC, one remounted read-only gives EROFS. Unmounted (lazily, so an open
/// file cannot keep it) and removed when released. Mounting needs CAP_SYS_ADMIN (root here).
final class TmpfsMount: ScratchFolder {
    /// Whether this process may mount a tmpfs: tried once.
    static let isAvailable: Bool = {
        guard let probe = try? TmpfsMount(sizeKilobytes: 16) else { return false }
        _ = probe
        return true
    }()

    private var isMounted = false

    /// Mounts an empty tmpfs of `sizeKilobytes`.
    init(sizeKilobytes: Int) throws {
        try super.init(prefix: "interlude-tmpfs")
        try Self.run(["mount", "-t", "tmpfs", "-o", "size=\(sizeKilobytes)k,mode=0755", "tmpfs", directory.path])
        isMounted = true
    }

    deinit {
        if isMounted { try? Self.run(["umount", "-l", directory.path]) }
    }

    /// Remounts the file system read-only (every create, write or rename in it then fails with
    /// EROFS), or writable again.
    func remount(readOnly: Bool) throws {
        try Self.run(["mount", "-o", readOnly ? "remount,ro" : "remount,rw", directory.path])
    }

    /// Fills the file system: writes a file named `name` until the device is full (ENOSPC).
    /// Removing that file makes room again.
    func fill(name: String) throws {
        let fileDescriptor = open(path(name), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fileDescriptor >= 0 else { throw TestFailure("open \(path(name)): \(String(cString: strerror(errno)))") }
        defer { close(fileDescriptor) }
        let block = [UInt8](repeating: 0x5A, count: 1024)
        while true {
            let written = block.withUnsafeBytes { Glibc.write(fileDescriptor, $0.baseAddress!, $0.count) }
            if written < 0 {
                guard errno == ENOSPC else { throw TestFailure("filling \(path(name)): \(String(cString: strerror(errno)))") }
                return
            }
            // A partial write means the next one meets ENOSPC.
        }
    }

    private static func run(_ arguments: [String]) throws {
        let child = try ChildProcess(arguments, environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"])
        guard child.waitForExit(timeoutSeconds: 10), let status = child.status, status == 0 else {
            throw TestFailure("\(arguments.joined(separator: " ")) failed (wait status \(child.status.map(String.init) ?? "none"))")
        }
    }
}
