import Interlude

/// A JSON value whose objects keep their members in order: what scene files are parsed into,
/// and what a render log writes, so that the same scene gives the same log, byte for byte.
///
/// A plain value: any thread may use it.
public enum JSONValue: Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    /// Members in order, each key once.
    case object([(key: String, value: JSONValue)])

    /// A number from a `Float`, as the shortest decimal that reads back as that `Float`
    /// (a gain of 0.8 logs as 0.8, not 0.800000011920929).
    public init(_ value: Float) {
        // A Float's description always parses as a Double ("inf" and "nan" included).
        self = .number(Double(value.description)!)
    }

    /// An array of three numbers, as scene files write positions and directions.
    public init(_ vector: Vector3) {
        self = .array([JSONValue(vector.x), JSONValue(vector.y), JSONValue(vector.z)])
    }

    /// Compact JSON text on one line: integral numbers without a fraction, other numbers in
    /// their shortest round-trip form, non-finite numbers as `null` (JSON has no infinities).
    public var jsonText: String {
        var text = ""
        write(to: &text)
        return text
    }

    private func write(to text: inout String) {
        switch self {
        case .null:
            text += "null"
        case .bool(let value):
            text += value ? "true" : "false"
        case .number(let value):
            text += Self.text(ofNumber: value)
        case .string(let value):
            Self.write(string: value, to: &text)
        case .array(let items):
            text += "["
            for (position, item) in items.enumerated() {
                if position > 0 { text += "," }
                item.write(to: &text)
            }
            text += "]"
        case .object(let members):
            text += "{"
            for (position, member) in members.enumerated() {
                if position > 0 { text += "," }
                Self.write(string: member.key, to: &text)
                text += ":"
                member.value.write(to: &text)
            }
            text += "}"
        }
    }

    private static func text(ofNumber value: Double) -> String {
        guard value.isFinite else { return "null" }
        // Below 2^53 every integral Double is an exact Int64.
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 {
            return String(Int64(value))
        }
        return value.description
    }

    private static func write(string: String, to text: inout String) {
        text += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
