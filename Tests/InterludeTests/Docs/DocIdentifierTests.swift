import Foundation
import Testing

/// docs/architecture.md and docs/guide.md name the code in backticks: a type, a member, a call, a
/// file, a `make` target. These fail when a name no longer exists, so a rename or a removal that
/// leaves a page behind is caught.
///
/// Each inline code span outside fenced code blocks is one of:
/// - a name: a Swift or C identifier or a dotted path of them (`SoundEngine`,
///   `OutputRouter.restartOutputIfDue`, `.systemDefault`, `ALC_SOFT_device_clock`), with an optional
///   call or argument-label suffix (`play(_:parameters:)`) that is not checked, and optional generic
///   arguments (`AnnotatedMutex<EngineCore>`) that are; several such names joined by " / ". Each
///   component must be an identifier of the code (Sources/, Tests/, examples/ and Package.swift,
///   outside comments and string literals); or a word in a string literal of the shipped products
///   (the engine, InterludeScene and the `interlude` command: what the engine reads or writes by
///   name, such as environment variables, D-Bus members and scene keys); or, for a C library's
///   prefix (al, alc, AL_, ALC_, pa_, PA_, ogg_), a word of its headers under /usr/include. A
///   component after a type the engine declares (in Sources/) must appear in that type's
///   declarations or extensions there: `EngineEvent.soundLost` fails, as `soundLost` is a
///   `DeviceEvent`.
/// - a repository path (it contains "/"): it must exist from the repository root, or from a
///   target's folder under Sources/ (the pages name the engine's rooms `OpenAL/`, `Session/Desktop/`).
/// - `make TARGET`: the Makefile must have the target.
///
/// Everything else is skipped: values (`1 s`), shell commands with arguments, assignments, quoted
/// JSON keys, attributes. So are, explicitly, build products under `.build/` and the few names in
/// ``namesFromElsewhere``.
@Suite struct DocIdentifierTests {
    /// The pages checked, from the repository root.
    static let documents = ["docs/architecture.md", "docs/guide.md"]

    /// Names the pages give in backticks that are no identifier of this code, each with why.
    static let namesFromElsewhere: [String: String] = [
        "oggdec": "vorbis-tools' reference decoder, which the codec tests run (CodecFixture)",
        "opusdec": "opus-tools' reference decoder, which the codec tests run (CodecFixture)",
        "dwStart": "a field of a RIFF smpl chunk's loop, which WAVDecoder reads by offset",
        "dwEnd": "a field of a RIFF smpl chunk's loop, which WAVDecoder reads by offset",
    ]

    /// C header folders, and the prefixes of the names looked up there.
    static let cHeaders = ["/usr/include/AL", "/usr/include/pulse", "/usr/include/ogg"]
    static let cPrefixes = ["al", "alc", "AL_", "ALC_", "pa_", "PA_", "ogg_"]

    /// The products whose string literals name what the engine reads or writes.
    static let shippedSourceFolders = ["Sources/Interlude/", "Sources/InterludeScene/", "Sources/InterludeCLI/"]

    // MARK: What exists

    /// Every name the checker accepts, read from the repository once.
    struct NameIndex: Sendable {
        /// Identifiers in the code, outside comments and string literals (interpolations count).
        var code: Set<String> = []
        /// Words in the string literals of the shipped products and of Package.swift.
        var shippedStrings: Set<String> = []
        /// Words of the C headers in ``DocIdentifierTests/cHeaders``.
        var headers: Set<String> = []
        /// For each type declared in Sources/: the words of its declarations and extensions there.
        var members: [String: Set<String>] = [:]
        /// The Makefile's targets.
        var makeTargets: Set<String> = []
        /// Folders a path may be read from: the root, and each target folder under Sources/.
        var pathBases: [URL] = []

        static func load(root: URL) throws -> NameIndex {
            var index = NameIndex()
            let fileManager = FileManager.default
            var files = [root.appendingPathComponent("Package.swift")]
            for folder in ["Sources", "Tests", "examples"] {
                guard let walk = fileManager.enumerator(at: root.appendingPathComponent(folder), includingPropertiesForKeys: nil) else { continue }
                for case let url as URL in walk where ["swift", "c", "h"].contains(url.pathExtension) {
                    files.append(url)
                }
            }
            let rootPath = root.standardizedFileURL.path + "/"
            for file in files {
                let text = try String(contentsOf: file, encoding: .utf8)
                let relative = String(file.standardizedFileURL.path.dropFirst(rootPath.count))
                let parts = SourceText.split(text)
                index.code.formUnion(words(in: parts.code))
                index.code.formUnion(words(in: parts.interpolations))
                if relative == "Package.swift" || shippedSourceFolders.contains(where: { relative.hasPrefix($0) }) {
                    index.shippedStrings.formUnion(words(in: parts.strings))
                }
                if relative.hasPrefix("Sources/"), file.pathExtension == "swift" {
                    for (type, body) in SourceText.typeBodies(in: parts.code) {
                        index.members[type, default: []].formUnion(words(in: body))
                    }
                }
            }
            for folder in cHeaders {
                let names = (try? fileManager.contentsOfDirectory(atPath: folder)) ?? []
                for name in names where name.hasSuffix(".h") {
                    if let text = try? String(contentsOfFile: folder + "/" + name, encoding: .utf8) {
                        index.headers.formUnion(words(in: text))
                    }
                }
            }
            let makefile = try String(contentsOf: root.appendingPathComponent("Makefile"), encoding: .utf8)
            index.makeTargets = makeTargets(in: makefile)
            index.pathBases = [root]
            let sources = root.appendingPathComponent("Sources")
            for name in (try fileManager.contentsOfDirectory(atPath: sources.path)).sorted() {
                index.pathBases.append(sources.appendingPathComponent(name))
            }
            return index
        }

        /// The targets a Makefile defines (`NAME:` at the start of a line, not `NAME := value`).
        static func makeTargets(in makefile: String) -> Set<String> {
            var targets: Set<String> = []
            for line in makefile.split(separator: "\n", omittingEmptySubsequences: true) {
                guard let first = line.first, first != "\t", first != "#", let colon = line.firstIndex(of: ":") else { continue }
                let after = line[line.index(after: colon)...]
                guard !after.hasPrefix("=") else { continue }
                let names = line[..<colon].split(separator: " ")
                guard !names.isEmpty, names.allSatisfy({ $0.allSatisfy { $0.isLetter || $0.isNumber || "_.-".contains($0) } }) else { continue }
                for name in names where !name.hasPrefix(".") { targets.insert(String(name)) }
            }
            return targets
        }
    }

    /// The identifiers in `text`.
    static func words(in text: String) -> Set<String> {
        var found: Set<String> = []
        var current: [UInt8] = []
        for byte in text.utf8 {
            if isIdentifierByte(byte) && (!current.isEmpty || !isDigit(byte)) {
                current.append(byte)
            } else if !current.isEmpty {
                found.insert(String(decoding: current, as: UTF8.self))
                current.removeAll(keepingCapacity: true)
            }
        }
        if !current.isEmpty { found.insert(String(decoding: current, as: UTF8.self)) }
        return found
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    static func isIdentifierByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
    }

    // MARK: Reading Swift and C

    /// A source file taken apart: its code with comments and string literals blanked out, the text
    /// of its string literals, and the text of the interpolations inside them.
    enum SourceText {
        struct Parts {
            var code: String
            var strings: String
            var interpolations: String
        }

        static func split(_ text: String) -> Parts {
            let bytes = Array(text.utf8)
            var code: [UInt8] = [], strings: [UInt8] = [], interpolations: [UInt8] = []
            code.reserveCapacity(bytes.count)
            var index = 0
            func at(_ offset: Int) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "/"), at(1) == UInt8(ascii: "/") {
                    while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
                    continue
                }
                if byte == UInt8(ascii: "/"), at(1) == UInt8(ascii: "*") {
                    // Swift's block comments nest.
                    var depth = 0
                    repeat {
                        if bytes[index] == UInt8(ascii: "/"), at(1) == UInt8(ascii: "*") { depth += 1; index += 2 }
                        else if bytes[index] == UInt8(ascii: "*"), at(1) == UInt8(ascii: "/") { depth -= 1; index += 2 }
                        else { index += 1 }
                    } while depth > 0 && index < bytes.count
                    code.append(UInt8(ascii: " "))
                    continue
                }
                if byte == UInt8(ascii: "'"), let closing = [2, 3].first(where: { at($0) == UInt8(ascii: "'") }) {
                    // A C character literal ('"', '\n').
                    index += closing + 1
                    code.append(UInt8(ascii: " "))
                    continue
                }
                if byte == UInt8(ascii: "#") || byte == UInt8(ascii: "\"") {
                    var hashes = 0
                    while at(hashes) == UInt8(ascii: "#") { hashes += 1 }
                    if at(hashes) == UInt8(ascii: "\"") {
                        index += hashes
                        readString(bytes, &index, hashes: hashes, into: &strings, interpolations: &interpolations)
                        code.append(UInt8(ascii: " "))
                        continue
                    }
                }
                code.append(byte)
                index += 1
            }
            return Parts(code: String(decoding: code, as: UTF8.self), strings: String(decoding: strings, as: UTF8.self),
                         interpolations: String(decoding: interpolations, as: UTF8.self))
        }

        /// Reads the string literal whose opening quote is at `index` (after `hashes` #s), leaving
        /// `index` after it: its text goes to `strings`, that of its interpolations (outside raw
        /// strings) to `interpolations`.
        static func readString(_ bytes: [UInt8], _ index: inout Int, hashes: Int, into strings: inout [UInt8],
                               interpolations: inout [UInt8]) {
            let quote = UInt8(ascii: "\"")
            let isMultiline = index + 2 < bytes.count && bytes[index + 1] == quote && bytes[index + 2] == quote
            let delimiter = isMultiline ? 3 : 1
            index += delimiter
            func closes(at position: Int) -> Bool {
                guard position + delimiter + hashes <= bytes.count else { return false }
                for offset in 0..<delimiter where bytes[position + offset] != quote { return false }
                for offset in 0..<hashes where bytes[position + delimiter + offset] != UInt8(ascii: "#") { return false }
                return true
            }
            while index < bytes.count {
                if closes(at: index) {
                    index += delimiter + hashes
                    break
                }
                let byte = bytes[index]
                if byte == UInt8(ascii: "\n") && !isMultiline { break }
                if byte == UInt8(ascii: "\\"), hashes == 0, index + 1 < bytes.count {
                    if bytes[index + 1] == UInt8(ascii: "(") {
                        var depth = 1
                        index += 2
                        while index < bytes.count, depth > 0 {
                            if bytes[index] == UInt8(ascii: "(") { depth += 1 }
                            if bytes[index] == UInt8(ascii: ")") { depth -= 1 }
                            if depth > 0 { interpolations.append(bytes[index]) }
                            index += 1
                        }
                        interpolations.append(UInt8(ascii: " "))
                        strings.append(UInt8(ascii: " "))
                    } else {
                        index += 2
                        strings.append(UInt8(ascii: " "))
                    }
                    continue
                }
                strings.append(byte)
                index += 1
            }
            strings.append(UInt8(ascii: " "))
        }

        /// Each type declaration or extension in `code` (comments and strings already blanked):
        /// the type's name (the last component of a dotted one) and the text of its braces.
        static func typeBodies(in code: String) -> [(String, String)] {
            let bytes = Array(code.utf8)
            let keywords: Set<String> = ["class", "struct", "enum", "protocol", "actor", "extension"]
            var found: [(String, String)] = []
            var index = 0
            func word(at start: Int) -> (String, Int) {
                var end = start
                while end < bytes.count, isIdentifierByte(bytes[end]) || bytes[end] == UInt8(ascii: ".") { end += 1 }
                return (String(decoding: bytes[start..<end], as: UTF8.self), end)
            }
            while index < bytes.count {
                guard isIdentifierByte(bytes[index]), index == 0 || !isIdentifierByte(bytes[index - 1]) && bytes[index - 1] != UInt8(ascii: ".") else {
                    index += 1
                    continue
                }
                let (keyword, afterKeyword) = word(at: index)
                index = afterKeyword
                guard keywords.contains(keyword) else { continue }
                var nameStart = afterKeyword
                while nameStart < bytes.count, bytes[nameStart] == UInt8(ascii: " ") { nameStart += 1 }
                guard nameStart > afterKeyword, nameStart < bytes.count, bytes[nameStart] >= 0x41, bytes[nameStart] <= 0x5A else { continue }
                let (dotted, _) = word(at: nameStart)
                guard let name = dotted.split(separator: ".").last,
                      let open = bytes[nameStart...].firstIndex(of: UInt8(ascii: "{")) else { continue }
                var depth = 0, close = open
                while close < bytes.count {
                    if bytes[close] == UInt8(ascii: "{") { depth += 1 }
                    if bytes[close] == UInt8(ascii: "}") { depth -= 1; if depth == 0 { break } }
                    close += 1
                }
                found.append((String(name), String(decoding: bytes[open..<min(close + 1, bytes.count)], as: UTF8.self)))
            }
            return found
        }
    }

    // MARK: Reading Markdown

    /// An inline code span: its text and the line it begins on.
    struct Span: Equatable {
        var line: Int
        var text: String
    }

    /// The inline code spans of `markdown` outside fenced code blocks. A span may run over lines
    /// (its line breaks read as spaces), not over a blank line; an unmatched backtick is text.
    static func codeSpans(in markdown: String) -> [Span] {
        var spans: [Span] = []
        var block: [(line: Int, text: String)] = []
        var isFenced = false
        func closeBlock() {
            spans += spansIn(block)
            block.removeAll()
        }
        for (offset, line) in markdown.components(separatedBy: "\n").enumerated() {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                closeBlock()
                isFenced.toggle()
                continue
            }
            if isFenced { continue }
            if trimmed.isEmpty { closeBlock(); continue }
            block.append((offset + 1, line))
        }
        closeBlock()
        return spans
    }

    /// The code spans of one block of consecutive lines.
    static func spansIn(_ block: [(line: Int, text: String)]) -> [Span] {
        // Each character with the line it is on.
        var characters: [(Character, Int)] = []
        for (line, text) in block {
            for character in text { characters.append((character, line)) }
            characters.append((" ", line))
        }
        var spans: [Span] = []
        var index = 0
        func runLength(at start: Int) -> Int {
            var end = start
            while end < characters.count, characters[end].0 == "`" { end += 1 }
            return end - start
        }
        while index < characters.count {
            guard characters[index].0 == "`" else { index += 1; continue }
            let length = runLength(at: index)
            var search = index + length
            var closing: Int?
            while search < characters.count {
                if characters[search].0 == "`" {
                    let candidate = runLength(at: search)
                    if candidate == length { closing = search; break }
                    search += candidate
                } else {
                    search += 1
                }
            }
            guard let closing else { index += length; continue }
            var text = String(characters[(index + length)..<closing].map(\.0))
            if text.count > 1, text.hasPrefix(" "), text.hasSuffix(" "), text.contains(where: { $0 != " " }) {
                text = String(text.dropFirst().dropLast())
            }
            spans.append(Span(line: characters[index].1, text: text))
            index = closing + length
        }
        return spans
    }

    // MARK: Checking

    /// One span that names nothing.
    struct Failure: CustomStringConvertible, Equatable {
        var file: String
        var line: Int
        var span: String
        var reason: String
        var description: String { "\(file):\(line): `\(span)`: \(reason)" }
    }

    /// What a span names, when it names something.
    enum Claim: Equatable {
        /// Names, each a dotted path of components.
        case names([[String]])
        case path(String)
        case makeTargets([String])
    }

    /// What `span` claims exists, or nil for a span that is skipped.
    static func claim(of span: String) -> Claim? {
        if span.hasPrefix("make ") {
            let targets = span.dropFirst("make ".count).split(separator: " ").filter { !$0.hasPrefix("-") && !$0.contains("=") }
            return targets.isEmpty ? nil : .makeTargets(targets.map(String.init))
        }
        if span.contains("/"), !span.hasPrefix("/"), !span.contains("//"),
           span.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "_.+-/".contains($0)) }) {
            return span.hasPrefix(".build/") ? nil : .path(span)
        }
        var paths: [[String]] = []
        for alternative in span.components(separatedBy: " / ") {
            guard let named = namePaths(alternative) else { return nil }
            paths += named
        }
        return .names(paths)
    }

    /// The dotted paths `text` names: its own (a leading dot and a call suffix dropped), then
    /// those of its generic arguments; nil when `text` is no identifier or dotted path.
    static func namePaths(_ text: String) -> [[String]]? {
        var rest = Substring(text)
        if rest.hasPrefix(".") { rest = rest.dropFirst() }
        if let open = rest.firstIndex(of: "(") {
            guard rest.hasSuffix(")") else { return nil }
            rest = rest[..<open]
        }
        var components: [String] = []
        var generics: [[String]] = []
        for component in rest.split(separator: ".", omittingEmptySubsequences: false) {
            var name = component
            if let open = component.firstIndex(of: "<") {
                guard component.hasSuffix(">") else { return nil }
                name = component[..<open]
                let arguments = component[component.index(after: open)..<component.index(before: component.endIndex)]
                for argument in arguments.split(separator: ",") {
                    let trimmed = argument.trimmingCharacters(in: .whitespaces)
                    guard let inner = namePaths(trimmed) else { return nil }
                    generics += inner
                }
            }
            guard isIdentifier(name) else { return nil }
            components.append(String(name))
        }
        return components.isEmpty ? nil : [components] + generics
    }

    static func isIdentifier(_ name: Substring) -> Bool {
        guard let first = name.utf8.first, isIdentifierByte(first), !isDigit(first) else { return false }
        return name.utf8.allSatisfy(isIdentifierByte)
    }

    /// Checks every claim of `markdown`'s spans; `file` names it in the failures.
    static func check(markdown: String, file: String, index: NameIndex) -> [Failure] {
        var failures: [Failure] = []
        for span in codeSpans(in: markdown) {
            guard let claim = claim(of: span.text) else { continue }
            for reason in problems(with: claim, index: index) {
                failures.append(Failure(file: file, line: span.line, span: span.text, reason: reason))
            }
        }
        return failures
    }

    /// What is wrong with `claim`: nothing when everything it names exists.
    static func problems(with claim: Claim, index: NameIndex) -> [String] {
        switch claim {
        case .makeTargets(let targets):
            return targets.filter { !index.makeTargets.contains($0) }.map { "no target \($0) in the Makefile" }
        case .path(let path):
            let exists = index.pathBases.contains { FileManager.default.fileExists(atPath: $0.appendingPathComponent(path).path) }
            return exists ? [] : ["no such file or folder, from the root or a target's folder under Sources/"]
        case .names(let paths):
            return paths.flatMap { problems(withPath: $0, index: index) }
        }
    }

    /// What is wrong with one dotted path: each component must exist, and one that follows a type
    /// the engine declares must be that type's.
    static func problems(withPath path: [String], index: NameIndex) -> [String] {
        var problems: [String] = []
        var owner: String?
        for name in path {
            defer { owner = index.members[name] != nil ? name : nil }
            if let owner {
                if index.members[owner, default: []].contains(name) { continue }
                problems.append("\(name) is no member of \(owner) (its declarations and extensions in Sources/)")
                continue
            }
            if index.code.contains(name) || index.shippedStrings.contains(name) || namesFromElsewhere[name] != nil { continue }
            if cPrefixes.contains(where: { name.hasPrefix($0) }), index.headers.contains(name) { continue }
            problems.append("\(name) is not in the code (Sources/, Tests/, examples/, Package.swift), the shipped products' strings, or the C headers")
        }
        return problems
    }

    // MARK: The tests

    static let root = TestPaths.packageRoot

    @Test("every backticked name, path and make target in docs/architecture.md and docs/guide.md exists")
    func documentsNameWhatExists() throws {
        let index = try NameIndex.load(root: Self.root)
        #expect(index.code.contains("SoundEngine") && index.members["SoundEngine"]?.contains("play") == true,
                "the index of the code is empty: \(Self.root.path)")
        var failures: [Failure] = []
        for document in Self.documents {
            let text = try String(contentsOf: Self.root.appendingPathComponent(document), encoding: .utf8)
            let spans = Self.codeSpans(in: text)
            #expect(spans.count > 20, "\(document): only \(spans.count) code spans read")
            failures += Self.check(markdown: text, file: document, index: index)
        }
        #expect(failures.isEmpty, "\(failures.count) names in the docs that the code does not have:\n\(failures.map(\.description).joined(separator: "\n"))")
    }

    @Test("a made-up member, path and make target are reported with their line; fenced code and plain values are not")
    func madeUpNamesAreReported() throws {
        let index = try NameIndex.load(root: Self.root)
        let markdown = """
            # A page

            The facade is `SoundEngine`; it plays with `play(_:parameters:)`, at `.systemDefault`,
            through `AnnotatedMutex<EngineCore>`. It has no `SoundEngine.noSuchMemberAnywhere`,
            and `EngineEvent.soundLost(name:reason:)` is a `DeviceEvent` case. A value: `1 s`.

            ```swift
            let nothing = NoSuchTypeInAFence()
            ```

            See `docs/no-such-page.md`, not `docs/architecture.md`; run `make no-such-target`, not
            `make test`. Spans over two lines: `SoundEngine.alsoNotHere(a: 1,
            b: 2)`, `setDucking(12, of: .music,
            whilePlaying: .voice)`.
            """
        let failures = Self.check(markdown: markdown, file: "page.md", index: index)
        #expect(failures.map(\.line) == [4, 5, 11, 11, 12], "\(failures)")
        #expect(failures.map(\.span) == ["SoundEngine.noSuchMemberAnywhere", "EngineEvent.soundLost(name:reason:)",
                                         "docs/no-such-page.md", "make no-such-target", "SoundEngine.alsoNotHere(a: 1, b: 2)"],
                "\(failures)")
        #expect(failures.first?.description.hasPrefix("page.md:4: `SoundEngine.noSuchMemberAnywhere`: noSuchMemberAnywhere is no member of SoundEngine") == true,
                "\(failures)")
        #expect(Self.claim(of: "1 s") == nil && Self.claim(of: "swift run Arcade") == nil && Self.claim(of: "\"reverbZone\"") == nil)
        #expect(Self.claim(of: ".build/openal-1.24.2") == nil)
    }
}
