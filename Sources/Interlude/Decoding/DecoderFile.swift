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

    /// Opens `path` for reading. Throws `.fileNotFound` or `.unreadableFile`.
    init(path: String) throws {
        guard let handle = fopen(path, "rb") else {
            let code = errno
            if code == ENOENT || code == ENOTDIR {
                throw InterludeError(.fileNotFound, "\(path): no such file")
            }
            throw InterludeError(.unreadableFile, "\(path): cannot open (\(String(cString: strerror(code))))")
        }
        var status = stat()
        guard fstat(fileno(handle), &status) == 0 else {
            let code = errno
            fclose(handle)
            throw InterludeError(.unreadableFile, "\(path): cannot stat (\(String(cString: strerror(code))))")
        }
        // fopen succeeds on a directory; the failure would only show at the first read.
        guard status.st_mode & S_IFMT == S_IFREG else {
            fclose(handle)
            throw InterludeError(.unreadableFile, "\(path): not a regular file")
        }
        self.path = path
        self.handle = handle
        self.byteCount = Int(status.st_size)
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
}
