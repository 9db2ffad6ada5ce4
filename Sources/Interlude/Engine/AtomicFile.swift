import Foundation

/// Writes whole text files atomically: a temporary file beside the destination, renamed into
/// place, so a reader never sees half a file and a failure leaves nothing.
enum AtomicFile {
    static func write(_ text: String, to path: String) throws {
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw InterludeError(.writeFailed, "\(path): \(error.localizedDescription)")
        }
    }
}
