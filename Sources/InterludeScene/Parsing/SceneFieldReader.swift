import Interlude

/// Reads one JSON object of a scene file strictly: it rejects keys it does not know, reads
/// each field as exactly one type and range, and words every problem as one line that starts
/// with where the object is ("scene.json: event 3 (play)").
struct SceneFieldReader {
    /// The longest time a scene may name, in seconds: a day. Bounds frame counts far from overflow.
    static let maximumSeconds = 86_400.0

    let context: String
    /// The fields by the keys the readers ask for (a field given under its Swift name is kept
    /// under the older key it stands for).
    private let members: [String: JSONValue]
    /// The Swift name a field was given under, by the older key it is kept under: for messages.
    private let spellings: [String: String]

    /// Reads `value`, an object whose keys must be in `allowedKeys` or be the Swift names of
    /// those in `swiftNames` (older key -> the name the Swift API gives it, as `"fade"` ->
    /// `"fadeSeconds"`). Either spelling is read; both at once are refused.
    init(_ value: JSONValue, context: String, allowedKeys: Set<String>, swiftNames: [String: String] = [:]) throws {
        guard case .object(let list) = value else {
            throw Self.error(context, "must be a JSON object, got \(Self.excerpt(of: value))")
        }
        let olderKeys = Dictionary(uniqueKeysWithValues: swiftNames.map { ($0.value, $0.key) })
        if let unknown = list.first(where: { !allowedKeys.contains($0.key) && olderKeys[$0.key] == nil }) {
            throw Self.error(context, "unknown key \(Self.quoted(unknown.key))")
        }
        self.context = context
        var members: [String: JSONValue] = [:]
        var spellings: [String: String] = [:]
        // The JSON parser rejects duplicate keys.
        for (key, value) in list {
            let keptAs = olderKeys[key] ?? key
            if members[keptAs] != nil {
                throw Self.error(context, "\(Self.quoted(keptAs)) and \(Self.quoted(key)) are the same field; give one")
            }
            members[keptAs] = value
            if keptAs != key { spellings[keptAs] = key }
        }
        self.members = members
        self.spellings = spellings
    }

    static func error(_ context: String, _ problem: String) -> InterludeError {
        InterludeError(.badScene, "\(context): \(problem)")
    }

    func error(_ problem: String) -> InterludeError {
        Self.error(context, problem)
    }

    /// A name from the file in double quotes, escaped as JSON so that a message stays one line.
    static func quoted(_ name: String) -> String {
        JSONValue.string(name).jsonText
    }

    /// The value's JSON text, cut short for a one-line message.
    static func excerpt(of value: JSONValue) -> String {
        let text = value.jsonText
        return text.count <= 40 ? text : text.prefix(37) + "..."
    }

    func value(_ key: String) -> JSONValue? {
        members[key]
    }

    /// `read(key)`, which must not be nil.
    func require<T>(_ key: String, _ read: (String) throws -> T?) throws -> T {
        guard let value = try read(key) else { throw error("missing \"\(key)\"") }
        return value
    }

    private func mismatch(_ key: String, _ expectation: String, _ value: JSONValue) -> InterludeError {
        error("\"\(spellings[key] ?? key)\" must be \(expectation), got \(Self.excerpt(of: value))")
    }

    func string(_ key: String) throws -> String? {
        guard let value = members[key] else { return nil }
        guard case .string(let string) = value else { throw mismatch(key, "a string", value) }
        return string
    }

    /// A name: a string that is not empty.
    func name(_ key: String) throws -> String? {
        guard let value = members[key] else { return nil }
        guard case .string(let string) = value, !string.isEmpty else { throw mismatch(key, "a non-empty string", value) }
        return string
    }

    func bool(_ key: String) throws -> Bool? {
        guard let value = members[key] else { return nil }
        guard case .bool(let bool) = value else { throw mismatch(key, "true or false", value) }
        return bool
    }

    func integer(_ key: String, in range: ClosedRange<Int>? = nil, expectation named: String? = nil) throws -> Int? {
        guard let value = members[key] else { return nil }
        let expectation = named ?? range.map { "an integer in \($0.lowerBound)...\($0.upperBound)" } ?? "an integer"
        guard case .number(let number) = value, let integer = Int(exactly: number), range?.contains(integer) ?? true else {
            throw mismatch(key, expectation, value)
        }
        return integer
    }

    /// A number (always finite: the JSON parser rejects the rest) for which `isValid` holds.
    func number(_ key: String, _ expectation: String, where isValid: (Double) -> Bool) throws -> Double? {
        guard let value = members[key] else { return nil }
        guard case .number(let number) = value, isValid(number) else {
            throw mismatch(key, expectation, value)
        }
        return number
    }

    /// A time span in seconds: in 0...maximumSeconds.
    func seconds(_ key: String) throws -> Double? {
        try number(key, "a number of seconds in 0...\(JSONValue.number(Self.maximumSeconds).jsonText)") {
            $0 >= 0 && $0 <= Self.maximumSeconds
        }
    }

    /// A linear gain: >= 0.
    func gain(_ key: String) throws -> Float? {
        try number(key, "a finite number >= 0") { $0 >= 0 && Float($0).isFinite }.map { Float($0) }
    }

    /// A loudness target in LUFS (version 3): in -70...0.
    func loudness(_ key: String) throws -> Double? {
        try number(key, "a loudness target in LUFS from -70 to 0") { (Loudness.quietestLUFS...Loudness.loudestLUFS).contains($0) }
    }

    /// A pitch factor: > 0, as OpenAL takes it.
    func pitch(_ key: String) throws -> Float? {
        try number(key, "a finite number > 0") { Float($0) > 0 && Float($0).isFinite }.map { Float($0) }
    }

    /// A position: an array of 3 finite numbers.
    func vector(_ key: String) throws -> Vector3? {
        guard let value = members[key] else { return nil }
        guard case .array(let items) = value, items.count == 3 else { throw mismatch(key, "an array of 3 finite numbers", value) }
        var components: [Float] = []
        for item in items {
            guard case .number(let number) = item, Float(number).isFinite else {
                throw mismatch(key, "an array of 3 finite numbers", value)
            }
            components.append(Float(number))
        }
        return Vector3(components[0], components[1], components[2])
    }

    /// A direction: a vector that is not of zero length.
    func direction(_ key: String) throws -> Vector3? {
        guard let vector = try vector(key) else { return nil }
        guard vector.length > 0 else { throw error("\"\(key)\" must not have zero length") }
        return vector
    }

    /// One of `T`'s raw values.
    func choice<T: RawRepresentable & CaseIterable>(_ key: String, _ type: T.Type) throws -> T? where T.RawValue == String {
        guard let value = members[key] else { return nil }
        guard case .string(let string) = value, let choice = T(rawValue: string) else {
            let names = T.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            throw mismatch(key, "one of \(names)", value)
        }
        return choice
    }
}
