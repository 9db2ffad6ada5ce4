#if canImport(Glibc)
import Glibc
#endif

/// Reads a small file whole with POSIX calls, before OpenAL's first call at an engine's start
/// (the user's alsoft.conf files, the process's maps): FoundationEssentials' `Data` would cost
/// more code and time than the read.
enum FileBytes {
    /// The bytes of the file at `path`, or nil when it cannot be opened or read.
    static func read(_ path: String) -> [UInt8]? {
        let fileDescriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard fileDescriptor >= 0 else { return nil }
        defer { close(fileDescriptor) }
        var bytes: [UInt8] = []
        var block = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = block.withUnsafeMutableBytes { Glibc.read(fileDescriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { return bytes }
            bytes += block[..<count]
        }
    }
}
