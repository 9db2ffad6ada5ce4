#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The open file behind a decoder: one owner closes it exactly once.
///
/// Decoders read through stdio so a streamed track pulls only the bytes it plays; the size
/// taken at open bounds every length a file's headers may declare.
final class DecoderFile {
    let path: String
    let handle: UnsafeMutablePointer<FILE>
    /// Size of the file when it was opened.
    let byteCount: Int

    /// The descriptor under `handle`, for reading the file's size again.
    private let fileDescriptor: Int32

    /// Opens `path` for reading. Throws `.fileNotFound` or `.unreadableFile`.
    init(path: String) throws {
        let fileDescriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard fileDescriptor >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR {
                throw InterludeError(.fileNotFound, "\(path): no such file")
            }
            throw InterludeError(.unreadableFile, "\(path): cannot open (\(String(cString: strerror(code))))")
        }
        var status = stat()
        guard fstat(fileDescriptor, &status) == 0 else {
            let code = errno
            close(fileDescriptor)
            throw InterludeError(.unreadableFile, "\(path): cannot stat (\(String(cString: strerror(code))))")
        }
        // A directory opens for reading; the failure would only show at the first read.
        guard status.st_mode & S_IFMT == S_IFREG else {
            close(fileDescriptor)
            throw InterludeError(.unreadableFile, "\(path): not a regular file")
        }
        guard let handle = Self.stream(path: path, fileDescriptor: fileDescriptor) else {
            let code = errno
            close(fileDescriptor)
            throw InterludeError(.unreadableFile, "\(path): cannot open (\(String(cString: strerror(code))))")
        }
        self.path = path
        self.handle = handle
        self.fileDescriptor = fileDescriptor
        self.byteCount = Int(status.st_size)
    }

    /// A stdio stream over the descriptor: in debug builds a failing one when a test armed a
    /// read fault for `path` (``DecoderFaults``).
    private static func stream(path: String, fileDescriptor: Int32) -> UnsafeMutablePointer<FILE>? {
        #if DEBUG
        if let failing = DecoderFaults.failingStream(path: path, fileDescriptor: fileDescriptor) { return failing }
        #endif
        return fdopen(fileDescriptor, "rb")
    }

    deinit {
        fclose(handle)
    }

    /// Reads up to `byteCount` bytes at the current position; returns how many arrived.
    func read(into destination: UnsafeMutableRawPointer, byteCount: Int) -> Int {
        fread(destination, 1, byteCount, handle)
    }

    /// Reads up to `byteCount` bytes starting at byte `offset`; fewer come back at the end of the file.
    func bytes(atOffset offset: Int, byteCount: Int) throws -> [UInt8] {
        try seek(toByte: offset)
        let wanted = max(0, min(byteCount, self.byteCount - offset))
        return [UInt8](unsafeUninitializedCapacity: wanted) { buffer, initialized in
            initialized = wanted == 0 ? 0 : read(into: buffer.baseAddress!, byteCount: wanted)
        }
    }

    /// Moves the read position to byte `offset`.
    func seek(toByte offset: Int) throws {
        guard fseeko(handle, off_t(offset), SEEK_SET) == 0 else {
            throw InterludeError(.unreadableFile, "\(path): cannot seek to byte \(offset) (\(String(cString: strerror(errno))))")
        }
    }

    /// The error for a read that came back short: an I/O failure, or data that ends early.
    func shortReadError(_ what: String) -> InterludeError {
        if ferror(handle) != 0 {
            return InterludeError(.unreadableFile, "\(path): read error in \(what)")
        }
        return InterludeError(.corruptData, "\(path): \(what) ends early (file truncated)")
    }

    /// The file failed under the decoder at `frame` (of `frameCount`): `.unreadableFile` when a
    /// read failed (EIO), `.corruptData` "file truncated" when the file shrank since it was
    /// opened. A decoder reports that, not the damaged data, lost sync or early end its library
    /// then sees. nil when neither happened.
    func failure(atFrame frame: Int, of frameCount: Int) -> InterludeError? {
        if ferror(handle) != 0 {
            return InterludeError(.unreadableFile, "\(path): read error at frame \(frame) of \(frameCount)")
        }
        if let shrunk = shrunkByteCount() {
            return InterludeError(.corruptData, "\(path): ends at frame \(frame) of \(frameCount) (file truncated from \(byteCount) to \(shrunk) bytes while open)")
        }
        return nil
    }

    /// The file's size now, when it is smaller than at open: it was truncated while open (a
    /// file renamed over its path does not count, the open file is still the old one).
    private func shrunkByteCount() -> Int? {
        var status = stat()
        guard fstat(fileDescriptor, &status) == 0, Int(status.st_size) < byteCount else { return nil }
        return Int(status.st_size)
    }
}
