import Foundation

/// Paths in the repository, found from this file.
enum TestPaths {
    static var packageRoot: URL {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }

    static func asset(_ relative: String) -> String {
        packageRoot.appendingPathComponent("assets").appendingPathComponent(relative).path
    }
}
