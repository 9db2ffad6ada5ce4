import Foundation
import Testing

/// The layers' rule: only `OpenAL/` imports COpenAL, and OpenAL's types (those `OpenAL/`
/// declares, and the C library's own types and constants) are named only in `OpenAL/`,
/// `Rendering/` and `Device/`. Comments and string literals are left out: an error message may
/// name the AL call that failed. The model (voices, streams, sounds, the session) keeps
/// renderer slots and calls the renderers, which map them to AL objects.
@Suite struct ALTypeRuleTests {
    @Test("only OpenAL/ imports COpenAL")
    func onlyOpenALImportsCOpenAL() throws {
        let importers = try Self.files().filter { file in
            try String(contentsOf: file.url, encoding: .utf8).split(separator: "\n").contains { $0.hasPrefix("import COpenAL") }
        }.map(\.name)
        #expect(!importers.isEmpty)
        #expect(importers.allSatisfy { $0.hasPrefix("Interlude/OpenAL/") }, "COpenAL imported outside OpenAL/: \(importers.filter { !$0.hasPrefix("Interlude/OpenAL/") })")
    }

    @Test("AL types are named only in OpenAL/, Rendering/ and Device/")
    func alTypesStayInTheirLayers() throws {
        let files = try Self.files()
        let declared = try Self.typesDeclaredInOpenAL(files)
        #expect(declared.isSuperset(of: ["ALSource", "ALBuffer", "ALDevice", "ALContext"]), "declared: \(declared.sorted())")
        let names = declared.sorted().joined(separator: "|")
        let alType = try Regex("\\b(\(names)|ALC?(uint|int|enum|float|double|boolean|sizei|char|void|short|ushort|byte|ubyte))\\b|\\bALC?_[A-Z][A-Z0-9_]*\\b")
        var naming: [String: Set<String>] = [:]
        for file in files where file.name.hasPrefix("Interlude/") || file.name.hasPrefix("InterludeScene/") {
            let inLayer = ["Interlude/OpenAL/", "Interlude/Rendering/", "Interlude/Device/"].contains { file.name.hasPrefix($0) }
            if inLayer { continue }
            let code = Self.codeOnly(try String(contentsOf: file.url, encoding: .utf8))
            let found = Set(code.matches(of: alType).map { String(code[$0.range]) })
            if !found.isEmpty { naming[String(file.name.dropFirst("Interlude/".count)), default: []].formUnion(found) }
        }
        #expect(naming.isEmpty, "AL types named outside OpenAL/, Rendering/ and Device/:\n\(naming.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value.sorted())" }.joined(separator: "\n"))")
    }

    /// Every Swift file of the engine and the scene tools, named from Sources/.
    static func files() throws -> [(name: String, url: URL)] {
        let sources = TestPaths.packageRoot.appendingPathComponent("Sources")
        var found: [(String, URL)] = []
        for target in ["Interlude", "InterludeScene"] {
            let base = sources.appendingPathComponent(target)
            let urls = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
            for url in urls {
                found.append((target + "/" + url.path.dropFirst(base.path.count + 1), url))
            }
        }
        return found
    }

    /// The types `OpenAL/` declares at the top level of its files.
    static func typesDeclaredInOpenAL(_ files: [(name: String, url: URL)]) throws -> Set<String> {
        let declaration = #/^(?:(?:public|package|private|fileprivate|final)\s+)*(?:struct|class|enum|protocol|typealias|actor)\s+([A-Za-z_][A-Za-z0-9_]*)/#
        var names: Set<String> = []
        for file in files where file.name.hasPrefix("Interlude/OpenAL/") {
            for line in try String(contentsOf: file.url, encoding: .utf8).split(separator: "\n") {
                if let match = line.firstMatch(of: declaration) { names.insert(String(match.1)) }
            }
        }
        return names
    }

    /// `text` without its comments and the contents of its string literals.
    static func codeOnly(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            var code = ""
            var inString = false
            var previous: Character = " "
            for character in line {
                if inString {
                    if character == "\"" && previous != "\\" { inString = false; code.append(character) }
                } else if character == "/" && previous == "/" {
                    code.removeLast()
                    break
                } else {
                    if character == "\"" { inString = true }
                    code.append(character)
                }
                previous = previous == "\\" && character == "\\" ? " " : character
            }
            return code
        }.joined(separator: "\n")
    }
}
