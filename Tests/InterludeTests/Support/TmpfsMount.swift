#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A private tmpfs, to meet real file-system faults: a tiny one filled up gives ENOSPC, one
/// remounted read-only gives EROFS. Any user can have one: a helper shell in its own user and mount
/// namespace (`unshare -r -m`, where it is root) mounts it on a scratch folder and remounts it on
/// request, and the test reaches it through that shell's view of the file system,
/// `/proc/<pid>/root`. The mount lives only in that namespace, so it goes when the helper ends
/// (when this is released); nothing is left mounted on the machine.
final class TmpfsMount {
    /// Whether this machine lets this user make a user and mount namespace and mount a tmpfs in
    /// it (a kernel or AppArmor policy may forbid unprivileged user namespaces): tried once.
    static let isAvailable: Bool = (try? TmpfsMount(sizeKilobytes: 16)) != nil

    /// The mount point, as seen outside the namespace (an empty folder there).
    private let mountPoint: ScratchFolder
    private let helper: LineReadingChild<String>
    /// The mounted file system's root, reached through the helper's view.
    let directory: URL

    /// The helper's commands on its standard input: `ro` and `rw` remount, and each answers `ok`
    /// or `failed`; it ends at end of input. `mount -o remount,bind` changes the mount's own
    /// read-only flag, which an unprivileged namespace may change (the file system's own
    /// `remount,ro` it may not).
    private static let helperScript = #"""
        set -u
        mount -t tmpfs -o "size=$2k,mode=0755" tmpfs "$1" || exit 1
        echo mounted
        while read -r command; do
          case "$command" in
            ro) mount -o remount,bind,ro "$1" && echo ok || echo failed ;;
            rw) mount -o remount,bind,rw "$1" && echo ok || echo failed ;;
          esac
        done
        """#

    /// Mounts an empty tmpfs of `sizeKilobytes`.
    init(sizeKilobytes: Int) throws {
        mountPoint = try ScratchFolder(prefix: "interlude-tmpfs")
        helper = try LineReadingChild(["unshare", "--map-root-user", "--mount", "sh", "-c", Self.helperScript, "tmpfs-helper",
                                       mountPoint.directory.path, "\(sizeKilobytes)"],
                                      environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"]) { line, _ in line }
        directory = URL(fileURLWithPath: "/proc/\(helper.process.pid)/root" + mountPoint.directory.path)
        guard helper.waitFor(from: 0, timeoutSeconds: 10, where: { $0 == "mounted" }) != nil else {
            helper.kill()
            throw TestFailure("unshare could not mount a tmpfs in a user and mount namespace: \(helper.errorText)")
        }
    }

    deinit {
        helper.kill()
        _ = helper.process.waitForExit(timeoutSeconds: 5)
    }

    /// The path of `name` inside the file system.
    func path(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }

    /// Remounts the file system read-only (every create, write or rename in it then fails with
    /// EROFS), or writable again.
    func remount(readOnly: Bool) throws {
        let from = helper.lineCount
        helper.send(readOnly ? "ro" : "rw")
        guard let answer = helper.waitFor(from: from, timeoutSeconds: 10, where: { $0 == "ok" || $0 == "failed" }), answer.line == "ok" else {
            throw TestFailure("remounting the tmpfs \(readOnly ? "read-only" : "writable") failed: \(helper.errorText)")
        }
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
}
