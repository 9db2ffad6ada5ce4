#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The engine's own threads (the driver, the decode worker, logind's watcher, the async start,
/// and the short-lived server probe and connection): a detached POSIX thread with a name, and
/// nothing more. Foundation's `Thread` would do the same with its own object, thread-local
/// state and run-loop machinery mapped and touched for each, which a game pays in resident
/// memory for no use.
enum NamedThread {
    /// Starts a detached thread named `name` (see ``ThreadName``) running `body`. Fails only
    /// when the system cannot make a thread; the message names the error.
    static func start(_ name: String, _ body: @escaping @Sendable () -> Void) throws {
        final class Job: Sendable {
            let name: String
            let body: @Sendable () -> Void
            init(name: String, body: @escaping @Sendable () -> Void) {
                self.name = name
                self.body = body
            }
        }
        let job = Unmanaged.passRetained(Job(name: name, body: body))
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let result = pthread_create(&thread, &attributes, { context in
            let job = Unmanaged<Job>.fromOpaque(context!).takeRetainedValue()
            ThreadName.set(job.name)
            job.body()
            return nil
        }, job.toOpaque())
        guard result == 0 else {
            job.release()
            throw InterludeError(.deviceUnavailable, "\(name): pthread_create: \(String(cString: strerror(result)))")
        }
    }
}
