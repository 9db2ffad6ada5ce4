import Foundation
import Testing

/// The engine, the scene tools and the tests' support code (which runs in the thread sanitizer's
/// pass too) lock only through `AnnotatedMutex`: a plain
/// `Synchronization.Mutex` locks where ThreadSanitizer cannot see, so `make sanitize-thread`
/// reports every access made under it as a race and hides real ones among them.
@Suite struct LockRuleTests {
    @Test("no plain Mutex in the engine, the scene tools or the tests' support code")
    func onlyAnnotatedMutexes() throws {
        let root = TestPaths.packageRoot
        let plain = #/(^|[^A-Za-z])Mutex\s*[<(]/#
        var found: [String] = []
        for folder in ["Sources/Interlude", "Sources/InterludeScene", "Tests/InterludeTests/Support"] {
            let base = root.appendingPathComponent(folder)
            let files = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" && $0.lastPathComponent != "AnnotatedMutex.swift" } ?? []
            #expect(!files.isEmpty, "no Swift files under \(folder)")
            for file in files {
                let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
                for (index, line) in lines.enumerated() where line.contains(plain) {
                    found.append("\(folder)/\(file.lastPathComponent):\(index + 1): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        #expect(found.isEmpty, "plain Mutex (use AnnotatedMutex):\n\(found.joined(separator: "\n"))")
    }
}
