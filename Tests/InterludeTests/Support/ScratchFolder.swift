import Foundation

/// A private temporary folder, removed when released: the base of the tests' file fixtures.
class ScratchFolder {
    let directory: URL

    init(prefix: String) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// The path of `name` inside the folder.
    func path(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }
}
