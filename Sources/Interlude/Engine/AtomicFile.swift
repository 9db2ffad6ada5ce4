import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one way Interlude writes files: into a hidden temporary file beside the destination
/// (`.NAME.PID.XXXXXX` in the same folder), flushed to disk and renamed into place by
/// ``commit()``, so the destination is either untouched or complete.
///
/// The writer holds an exclusive `flock` on its temporary file for as long as it is open. A
/// writer killed outright (SIGKILL, power loss) leaves its file behind;
/// ``removeAbandonedFiles(besides:)`` removes such files once their owner is provably gone: no
/// process with that PID runs and nobody holds the lock.
///
/// A file is written whole with ``write(_:to:)``, or streamed: created, written at any offset
/// (a WAV header is patched after its data), then committed or discarded. A failed step,
/// ``discard()``, or releasing an uncommitted file removes the temporary file. Every error is
/// an ``InterludeError`` with `.writeFailed` and a message that starts with the destination.
///
/// Not `Sendable`: create and use it on one thread at a time.
package final class AtomicFile {
    /// Where the committed file goes.
    package let path: String
    private let temporaryPath: String
    /// The open temporary file; nil once it is committed or discarded.
    private var fileDescriptor: Int32?

    /// Creates the temporary file beside `path`, readable by all (0644) like an ordinary file.
    package init(path: String) throws {
        let (folder, name) = Self.split(path)
        var template = Array("\(folder).\(name).\(getpid()).XXXXXX".utf8CString)
        let fileDescriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fileDescriptor >= 0 else {
            throw Self.failure(path, "cannot create a temporary file beside it: \(Self.systemError())")
        }
        self.path = path
        self.temporaryPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        self.fileDescriptor = fileDescriptor
        // Held until the file is closed, by this process or by its death.
        guard flock(fileDescriptor, LOCK_EX) == 0 else {
            let error = Self.failure(path, "cannot lock the temporary file: \(Self.systemError())")
            discard()
            throw error
        }
        // mkstemp creates the file as 0600; a finished file is an ordinary readable file.
        guard fchmod(fileDescriptor, 0o644) == 0 else {
            let error = Self.failure(path, "cannot set permissions: \(Self.systemError())")
            discard()
            throw error
        }
    }

    deinit {
        discard()
    }

    /// Writes all of `bytes` at `offsetInBytes` in the temporary file. On failure the file is
    /// discarded.
    package func write(_ bytes: UnsafeRawBufferPointer, atOffset offsetInBytes: Int) throws {
        let fileDescriptor = try openFileDescriptor()
        var writtenCount = 0
        while writtenCount < bytes.count {
            let written = pwrite(fileDescriptor, bytes.baseAddress! + writtenCount, bytes.count - writtenCount,
                                 off_t(offsetInBytes + writtenCount))
            if written < 0 {
                if errno == EINTR { continue }
                let error = Self.failure(path, "cannot write: \(Self.systemError())")
                discard()
                throw error
            }
            writtenCount += written
        }
    }

    /// Flushes the temporary file to disk, leaving it open and uncommitted: a later ``commit()``
    /// then only renames, so several files can be made ready first and appear together. On
    /// failure the file is discarded.
    package func flush() throws {
        let fileDescriptor = try openFileDescriptor()
        guard fsync(fileDescriptor) == 0 else {
            let error = Self.failure(path, "cannot flush to disk: \(Self.systemError())")
            discard()
            throw error
        }
    }

    /// Flushes the temporary file to disk and renames it to ``path``, replacing any file there.
    /// On failure the temporary file is removed and ``path`` is untouched.
    package func commit() throws {
        let fileDescriptor = try openFileDescriptor()
        // Without fsync a crash soon after the rename could leave an empty file at `path`.
        guard fsync(fileDescriptor) == 0 else {
            let error = Self.failure(path, "cannot flush to disk: \(Self.systemError())")
            discard()
            throw error
        }
        self.fileDescriptor = nil
        guard close(fileDescriptor) == 0 else {
            let error = Self.failure(path, "cannot close the temporary file: \(Self.systemError())")
            unlink(temporaryPath)
            throw error
        }
        guard rename(temporaryPath, path) == 0 else {
            let error = Self.failure(path, "cannot rename the temporary file into place: \(Self.systemError())")
            unlink(temporaryPath)
            throw error
        }
    }

    /// Abandons the file: closes and removes the temporary file, leaving ``path`` untouched.
    /// Does nothing after ``commit()`` or a previous `discard()`.
    package func discard() {
        guard let fileDescriptor else { return }
        close(fileDescriptor)
        unlink(temporaryPath)
        self.fileDescriptor = nil
    }

    /// Writes `bytes` to `path` whole, atomically.
    package static func write(_ bytes: Data, to path: String) throws {
        try prepared(bytes, for: path).commit()
    }

    /// Writes `bytes` whole to a temporary file for `path` and flushes it, without committing:
    /// for files that must appear together with others.
    package static func prepared(_ bytes: Data, for path: String) throws -> AtomicFile {
        let file = try AtomicFile(path: path)
        try bytes.withUnsafeBytes { try file.write($0, atOffset: 0) }
        try file.flush()
        return file
    }

    /// Removes the temporary files that writers of `path` killed outright left beside it, when
    /// their owner is provably gone: the PID in the name runs no process, and the file's lock
    /// is free. Files of this process, of a live process, or still locked are kept. Returns the
    /// paths removed.
    @discardableResult
    package static func removeAbandonedFiles(besides path: String) -> [String] {
        let (folder, name) = split(path)
        let prefix = ".\(name)."
        let listed = (try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? []
        var removed: [String] = []
        for entry in listed where entry.hasPrefix(prefix) {
            // .NAME.PID.XXXXXX: a decimal PID, then mkstemp's six characters.
            let parts = entry.dropFirst(prefix.count).split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 2, parts[1].count == 6, let pid = pid_t(parts[0]), pid > 0, pid != getpid() else { continue }
            guard kill(pid, 0) != 0 && errno == ESRCH else { continue }
            let candidate = folder + entry
            let fileDescriptor = open(candidate, O_RDWR | O_NOFOLLOW | O_CLOEXEC)
            guard fileDescriptor >= 0 else { continue }
            defer { close(fileDescriptor) }
            guard flock(fileDescriptor, LOCK_EX | LOCK_NB) == 0 else { continue }
            if unlink(candidate) == 0 { removed.append(candidate) }
        }
        return removed
    }

    /// The folder part of `path` (ending in "/", or empty) and the file name.
    private static func split(_ path: String) -> (folder: String, name: String) {
        let folderEnd = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        return (String(path[..<folderEnd]), String(path[folderEnd...]))
    }

    /// Writes `text` to `path` as UTF-8, atomically.
    package static func write(_ text: String, to path: String) throws {
        try write(Data(text.utf8), to: path)
    }

    private func openFileDescriptor() throws -> Int32 {
        guard let fileDescriptor else {
            throw Self.failure(path, "the file is already committed or discarded")
        }
        return fileDescriptor
    }

    private static func failure(_ path: String, _ problem: String) -> InterludeError {
        InterludeError(.writeFailed, "\(path): \(problem)")
    }

    private static func systemError() -> String {
        String(cString: strerror(errno))
    }
}
