import Foundation
import Interlude

extension JSONValue {
    /// What is wrong with a JSON text, and where (1-based line and byte column).
    struct SyntaxError: Error {
        var problem: String
        var line: Int
        var column: Int
    }

    /// Parses a complete JSON text (RFC 8259) strictly: UTF-8 only, no trailing commas, no
    /// comments, nothing after the value, no number beyond Double's range, at most 64 levels
    /// deep, and no key twice in one object (Foundation's parser keeps one of the two silently,
    /// which would hide a mistake in a scene file).
    init(parsing data: Data) throws(SyntaxError) {
        var reader = Reader(bytes: Array(data))
        guard String(validating: reader.bytes, as: UTF8.self) != nil else {
            throw reader.error("the text is not valid UTF-8")
        }
        reader.skipWhitespace()
        let value = try reader.value(depth: 0)
        reader.skipWhitespace()
        guard reader.offset == reader.bytes.count else { throw reader.error("unexpected text after the value") }
        self = value
    }

    private struct Reader {
        static let maximumDepth = 64

        let bytes: [UInt8]
        var offset = 0

        init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        func error(_ problem: String) -> SyntaxError {
            let before = bytes[..<min(offset, bytes.count)]
            let line = before.reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
            let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
            return SyntaxError(problem: problem, line: line, column: offset - lineStart + 1)
        }

        var current: UInt8? { offset < bytes.count ? bytes[offset] : nil }

        mutating func skipWhitespace() {
            while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
                offset += 1
            }
        }

        mutating func value(depth: Int) throws(SyntaxError) -> JSONValue {
            guard depth < Self.maximumDepth else { throw error("nested more than \(Self.maximumDepth) levels deep") }
            guard let byte = current else { throw error("unexpected end of text") }
            switch byte {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
            default: throw error("unexpected character")
            }
        }

        mutating func literal(_ word: String) throws(SyntaxError) {
            let expected = Array(word.utf8)
            guard bytes.count - offset >= expected.count, Array(bytes[offset..<offset + expected.count]) == expected else {
                throw error("unexpected character")
            }
            offset += expected.count
        }

        mutating func object(depth: Int) throws(SyntaxError) -> JSONValue {
            offset += 1
            var members: [(key: String, value: JSONValue)] = []
            var keys = Set<String>()
            skipWhitespace()
            if current == UInt8(ascii: "}") {
                offset += 1
                return .object(members)
            }
            while true {
                guard current == UInt8(ascii: "\"") else { throw error("expected a key in double quotes") }
                let keyOffset = offset
                let key = try string()
                guard keys.insert(key).inserted else {
                    offset = keyOffset
                    throw error("duplicate key \(JSONValue.string(key).jsonText)")
                }
                skipWhitespace()
                guard current == UInt8(ascii: ":") else { throw error("expected \":\" after a key") }
                offset += 1
                skipWhitespace()
                members.append((key, try value(depth: depth + 1)))
                skipWhitespace()
                switch current {
                case UInt8(ascii: ","): offset += 1; skipWhitespace()
                case UInt8(ascii: "}"): offset += 1; return .object(members)
                default: throw error("expected \",\" or \"}\" in an object")
                }
            }
        }

        mutating func array(depth: Int) throws(SyntaxError) -> JSONValue {
            offset += 1
            var items: [JSONValue] = []
            skipWhitespace()
            if current == UInt8(ascii: "]") {
                offset += 1
                return .array(items)
            }
            while true {
                items.append(try value(depth: depth + 1))
                skipWhitespace()
                switch current {
                case UInt8(ascii: ","): offset += 1; skipWhitespace()
                case UInt8(ascii: "]"): offset += 1; return .array(items)
                default: throw error("expected \",\" or \"]\" in an array")
                }
            }
        }

        mutating func string() throws(SyntaxError) -> String {
            offset += 1
            var utf8: [UInt8] = []
            while true {
                guard let byte = current else { throw error("unterminated string") }
                switch byte {
                case UInt8(ascii: "\""):
                    offset += 1
                    // The whole text was validated as UTF-8 and escapes add only whole scalars.
                    return String(decoding: utf8, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    offset += 1
                    utf8 += try escape().utf8
                case ..<0x20:
                    throw error("control character in a string")
                default:
                    utf8.append(byte)
                    offset += 1
                }
            }
        }

        mutating func escape() throws(SyntaxError) -> String {
            guard let byte = current else { throw error("unterminated string") }
            offset += 1
            switch byte {
            case UInt8(ascii: "\""): return "\""
            case UInt8(ascii: "\\"): return "\\"
            case UInt8(ascii: "/"): return "/"
            case UInt8(ascii: "b"): return "\u{08}"
            case UInt8(ascii: "f"): return "\u{0C}"
            case UInt8(ascii: "n"): return "\n"
            case UInt8(ascii: "r"): return "\r"
            case UInt8(ascii: "t"): return "\t"
            case UInt8(ascii: "u"):
                let first = try hexQuad()
                if (0xD800..<0xDC00).contains(first) {
                    guard current == UInt8(ascii: "\\"), offset + 1 < bytes.count, bytes[offset + 1] == UInt8(ascii: "u") else {
                        throw error("unpaired surrogate in a \\u escape")
                    }
                    offset += 2
                    let second = try hexQuad()
                    guard (0xDC00..<0xE000).contains(second) else { throw error("unpaired surrogate in a \\u escape") }
                    return String(Unicode.Scalar(0x10000 + (first - 0xD800) << 10 + (second - 0xDC00))!)
                }
                guard let scalar = Unicode.Scalar(first) else { throw error("unpaired surrogate in a \\u escape") }
                return String(scalar)
            default:
                offset -= 1
                throw error("unknown escape in a string")
            }
        }

        mutating func hexQuad() throws(SyntaxError) -> UInt32 {
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard let byte = current, let digit = UInt32(String(UnicodeScalar(byte)), radix: 16) else {
                    throw error("expected four hex digits after \\u")
                }
                value = value << 4 | digit
                offset += 1
            }
            return value
        }

        mutating func number() throws(SyntaxError) -> Double {
            let start = offset
            func digits(_ reader: inout Reader) -> Int {
                let first = reader.offset
                while let byte = reader.current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { reader.offset += 1 }
                return reader.offset - first
            }
            if current == UInt8(ascii: "-") { offset += 1 }
            let integerStart = offset
            let integerDigits = digits(&self)
            guard integerDigits > 0 else { throw error("expected a digit") }
            guard integerDigits == 1 || bytes[integerStart] != UInt8(ascii: "0") else {
                offset = integerStart
                throw error("leading zero in a number")
            }
            if current == UInt8(ascii: ".") {
                offset += 1
                guard digits(&self) > 0 else { throw error("expected a digit after \".\"") }
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                offset += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { offset += 1 }
                guard digits(&self) > 0 else { throw error("expected a digit in the exponent") }
            }
            // The grammar above admits only text that Double parses. Rejecting what overflows
            // it keeps every parsed number finite.
            let number = Double(String(decoding: bytes[start..<offset], as: UTF8.self))!
            guard number.isFinite else {
                offset = start
                throw error("number too large")
            }
            return number
        }
    }
}
