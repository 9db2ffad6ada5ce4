import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `Synchronization.Mutex` that ThreadSanitizer can see.
///
/// Swift's `Mutex` locks through futex calls inside the standard library, which is not built with
/// TSan instrumentation, so TSan never sees it synchronize and reports every access made under it
/// as a data race (measured with Swift 6.3.1 on Linux: a two-thread program appending to a
/// `Mutex<[Int]>` is reported). When the process runs under TSan, `__tsan_acquire` and
/// `__tsan_release` resolve at run time and each critical section announces the lock to TSan;
/// otherwise both hooks are nil and the cost is a load and a branch. Same API as `Mutex`.
package struct AnnotatedMutex<Value: ~Copyable>: ~Copyable, Sendable {
    private let mutex: Mutex<Value>
    /// Its address names this lock to TSan: stable, unlike the address of a noncopyable struct.
    private let token = ThreadSanitizerHooks.Token()

    package init(_ initialValue: consuming sending Value) {
        mutex = Mutex(initialValue)
    }

    /// Runs `body` with the value, holding the lock.
    package borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        let address = UnsafeRawPointer(Unmanaged.passUnretained(token).toOpaque())
        let (acquire, release) = (token.acquire, token.release)
        return try mutex.withLock { (value: inout sending Value) throws(E) -> sending Result in
            acquire?(address)
            defer { release?(address) }
            return try body(&value)
        }
    }
}

/// ThreadSanitizer's annotation entry points, looked up once; nil when TSan is not linked in.
enum ThreadSanitizerHooks {
    typealias Hook = @convention(c) (UnsafeRawPointer?) -> Void
    static let acquire: Hook? = lookup("__tsan_acquire")
    static let release: Hook? = lookup("__tsan_release")

    /// One lock's name for TSan, holding the hooks so a lock reads them without the statics'
    /// once-check on every call.
    final class Token: Sendable {
        let acquire = ThreadSanitizerHooks.acquire
        let release = ThreadSanitizerHooks.release
    }

    private static func lookup(_ name: String) -> Hook? {
        guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, name) else { return nil }
        return unsafeBitCast(symbol, to: Hook.self)
    }
}
