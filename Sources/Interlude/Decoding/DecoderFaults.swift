#if DEBUG
import CStdioCookie
#if canImport(Glibc)
import Glibc
#endif

/// Read faults a test switches on for one file, at the boundary between the decoders and the
/// kernel: the `read(2)` under a decoder's stdio stream fails with EIO once the bytes the test
/// allows are used up, as a failing disk or a dropped network mount makes it fail mid-stream.
/// Every decoder reads through that stream, so each meets the error where its own read callback
/// sees it. Compiled into debug builds only: a release build opens every file with plain
/// `fdopen`.
enum DecoderFaults {
    /// How many more bytes of each armed path may be read, over all its open streams.
    private static let armed = AnnotatedMutex<[String: Int]>([:])

    /// Lets `byteCount` more bytes of `path` be read, then fails every read with EIO. Files
    /// opened at `path` while it is armed read through a failing stream; arming an open one
    /// again changes what it may still read (`.max` to open it intact, then 0 to fail it now).
    static func armReadError(path: String, afterBytes byteCount: Int) {
        armed.withLock { $0[path] = byteCount }
    }

    /// Disarms every path: their streams read normally again.
    static func disarmAll() {
        armed.withLock { $0.removeAll() }
    }

    /// Takes up to `byteCount` bytes from `path`'s allowance; returns how many may be read
    /// (0: the read fails).
    fileprivate static func allowance(path: String, byteCount: Int) -> Int {
        armed.withLock { allowances in
            guard let remaining = allowances[path] else { return byteCount }
            let allowed = min(byteCount, remaining)
            allowances[path] = remaining - allowed
            return allowed
        }
    }

    /// A stdio stream over `fileDescriptor` (taking it over): a failing one when `path` is
    /// armed, else nil.
    static func failingStream(path: String, fileDescriptor: Int32) -> UnsafeMutablePointer<FILE>? {
        guard armed.withLock({ $0[path] }) != nil else { return nil }
        let reader = Unmanaged.passRetained(FailingReader(path: path, fileDescriptor: fileDescriptor))
        let functions = interlude_cookie_io_functions(
            read: { cookie, destination, byteCount in
                Unmanaged<FailingReader>.fromOpaque(cookie!).takeUnretainedValue().read(into: destination!, byteCount: byteCount)
            },
            write: nil,
            seek: { cookie, offset, whence in
                Unmanaged<FailingReader>.fromOpaque(cookie!).takeUnretainedValue().seek(offset!, whence: whence)
            },
            close: { cookie in
                Unmanaged<FailingReader>.fromOpaque(cookie!).takeRetainedValue().close()
            })
        guard let stream = interlude_fopencookie(reader.toOpaque(), "rb", functions) else {
            reader.release()
            return nil
        }
        return stream
    }
}

/// The file behind a failing stream: each read passes through as far as its path's allowance
/// goes, and fails once it is used up.
private final class FailingReader {
    private let path: String
    private let fileDescriptor: Int32

    init(path: String, fileDescriptor: Int32) {
        self.path = path
        self.fileDescriptor = fileDescriptor
    }

    func read(into destination: UnsafeMutablePointer<CChar>, byteCount: Int) -> Int {
        let allowed = DecoderFaults.allowance(path: path, byteCount: byteCount)
        guard allowed > 0 || byteCount == 0 else {
            errno = EIO
            return -1
        }
        return Glibc.read(fileDescriptor, destination, allowed)
    }

    func seek(_ offset: UnsafeMutablePointer<Int64>, whence: Int32) -> Int32 {
        let position = lseek(fileDescriptor, off_t(offset.pointee), whence)
        guard position >= 0 else { return -1 }
        offset.pointee = Int64(position)
        return 0
    }

    func close() -> Int32 {
        Glibc.close(fileDescriptor)
    }
}
#endif
