#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Names the calling thread as `top -H`, `ps -L` and /proc show it, so each of the engine's
/// threads can be told apart (and measured) by name. `package`: InterludeScene's cue bank
/// watcher names its thread the same way.
package enum ThreadName {
    /// Sets the calling thread's name; Linux keeps its first 15 bytes. Written to
    /// /proc/thread-self/comm: Glibc's `pthread_setname_np` is not visible to Swift, and
    /// Foundation's `Thread.name` did not reach every thread. A failure leaves the name as it was.
    package static func set(_ name: String) {
        let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }
}
