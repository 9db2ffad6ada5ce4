import Interlude

/// Version 3's sound design in a scene file: the top-level `cues`, `parameters` and
/// `snapshots`, and the checks of the events that name them.
extension SceneParser {
    static let cueKeys: Set = [
        "variants", "order", "gain", "pitch", "loudness", "loop", "group", "priority", "maxVoices", "steal", "cooldown", "curves",
    ]
    /// A cue's older keys, also read under the names ``CueDefinition`` gives them.
    static let cueSwiftNames = [
        "gain": "gainRange", "pitch": "pitchRange", "loudness": "loudnessLUFS", "loop": "isLooping", "cooldown": "cooldownSeconds",
    ]

    /// The top-level `seed`: an integer >= 0.
    static func seed(_ top: SceneFieldReader) throws -> UInt64 {
        guard let seed = try top.integer("seed", in: 0...Int.max, expectation: "an integer >= 0") else { return 0 }
        return UInt64(seed)
    }

    /// The `parameters` object: name -> `{"min", "max", "default"}`.
    static func parameters(_ top: SceneFieldReader, fileName: String) throws -> [String: SceneParameter] {
        guard let value = top.value("parameters") else { return [:] }
        guard case .object(let entries) = value else {
            throw top.error("\"parameters\" must be an object of name -> {\"min\", \"max\", \"default\"}, got \(SceneFieldReader.excerpt(of: value))")
        }
        var parameters: [String: SceneParameter] = [:]
        for (name, entry) in entries {
            let fields = try SceneFieldReader(entry, context: "\(fileName): parameter \(SceneFieldReader.quoted(name))",
                                              allowedKeys: ["min", "max", "default"])
            guard !name.isEmpty else { throw fields.error("a parameter needs a name") }
            let finite = "a finite number"
            let min = try fields.require("min") { try fields.number($0, finite) { Float($0).isFinite } }
            let max = try fields.require("max") { try fields.number($0, finite) { Float($0).isFinite } }
            guard Float(min) < Float(max) else { throw fields.error("\"min\" (\(min)) must be less than \"max\" (\(max))") }
            let defaultValue = try fields.number("default", "a number in \(JSONValue.number(min).jsonText)...\(JSONValue.number(max).jsonText)") { Float(min) <= Float($0) && Float($0) <= Float(max) }
            parameters[name] = SceneParameter(min: Float(min), max: Float(max), defaultValue: Float(defaultValue ?? min))
        }
        return parameters
    }

    /// The `snapshots` object: name -> `{"groups": {GROUP: {"gain", "lowpass"}}}`.
    static func snapshots(_ top: SceneFieldReader, fileName: String) throws -> [String: SceneMixSnapshot] {
        guard let value = top.value("snapshots") else { return [:] }
        guard case .object(let entries) = value else {
            throw top.error("\"snapshots\" must be an object of name -> {\"groups\": ...}, got \(SceneFieldReader.excerpt(of: value))")
        }
        var snapshots: [String: SceneMixSnapshot] = [:]
        for (name, entry) in entries {
            let context = "\(fileName): snapshot \(SceneFieldReader.quoted(name))"
            let fields = try SceneFieldReader(entry, context: context, allowedKeys: ["groups"])
            guard !name.isEmpty else { throw fields.error("a snapshot needs a name") }
            var groups: [String: GroupMix] = [:]
            if let groupList = fields.value("groups") {
                guard case .object(let groupEntries) = groupList else {
                    throw fields.error("\"groups\" must be an object of group name -> {\"gain\", \"lowpass\"}, got \(SceneFieldReader.excerpt(of: groupList))")
                }
                for (group, mix) in groupEntries {
                    let mixFields = try SceneFieldReader(mix, context: "\(context): group \(SceneFieldReader.quoted(group))",
                                                         allowedKeys: ["gain", "lowpass"], swiftNames: ["lowpass": "lowPassGainHF"])
                    guard !group.isEmpty else { throw mixFields.error("a group needs a name") }
                    let lowPass = try mixFields.number("lowpass", "a number from 0 to 1") { (0...1).contains($0) }
                    groups[group] = GroupMix(gain: try mixFields.gain("gain") ?? 1, lowPassGainHF: Float(lowPass ?? 1))
                }
            }
            snapshots[name] = SceneMixSnapshot(groups: groups)
        }
        return snapshots
    }

    /// The `cues` object: name -> cue. Variants must be in `sounds`, curves' parameters in
    /// `parameters`.
    static func cues(_ top: SceneFieldReader, fileName: String, sounds: [String: String],
                     parameters: [String: SceneParameter]) throws -> [String: SceneCue] {
        guard let value = top.value("cues") else { return [:] }
        guard case .object(let entries) = value else {
            throw top.error("\"cues\" must be an object of name -> cue, got \(SceneFieldReader.excerpt(of: value))")
        }
        var cues: [String: SceneCue] = [:]
        for (name, entry) in entries {
            let fields = try SceneFieldReader(entry, context: "\(fileName): cue \(SceneFieldReader.quoted(name))", allowedKeys: cueKeys,
                                              swiftNames: cueSwiftNames)
            guard !name.isEmpty else { throw fields.error("a cue needs a name") }
            cues[name] = try cue(fields, sounds: sounds, parameters: parameters)
        }
        return cues
    }

    private static func cue(_ fields: SceneFieldReader, sounds: [String: String], parameters: [String: SceneParameter]) throws -> SceneCue {
        guard let variantList = fields.value("variants") else { throw fields.error("missing \"variants\"") }
        guard case .array(let items) = variantList, !items.isEmpty else {
            throw fields.error("\"variants\" must be an array of one or more sound names, got \(SceneFieldReader.excerpt(of: variantList))")
        }
        let variants = try items.map { item in
            guard case .string(let sound) = item, !sound.isEmpty else {
                throw fields.error("\"variants\" must be an array of one or more sound names, got \(SceneFieldReader.excerpt(of: variantList))")
            }
            guard sounds[sound] != nil else {
                throw fields.error("variant \(SceneFieldReader.quoted(sound)) is not in \"sounds\"")
            }
            return sound
        }
        var cue = SceneCue(variants: variants)
        cue.order = try fields.choice("order", CueOrder.self) ?? .randomNoRepeat
        cue.gainRange = try range(fields, "gain", lowest: 0, allowsLowest: true) ?? 1...1
        cue.pitchRange = try range(fields, "pitch", lowest: 0, allowsLowest: false) ?? 1...1
        cue.loudnessLUFS = try fields.number("loudness", "a number of LUFS in -70...0") { (-70...0).contains($0) }.map { Float($0) }
        cue.loop = try fields.bool("loop") ?? false
        cue.group = try fields.name("group") ?? "sfx"
        cue.priority = try fields.integer("priority") ?? 0
        cue.maxVoices = try fields.integer("maxVoices", in: 0...Int.max, expectation: "an integer >= 0") ?? 0
        cue.steal = try fields.choice("steal", CueSteal.self) ?? .oldest
        cue.cooldownSeconds = try fields.seconds("cooldown") ?? 0
        cue.curves = try curves(fields, parameters: parameters)
        return cue
    }

    /// A number or `[lo, hi]`, each above `lowest` (or at it, with `allowsLowest`), lo <= hi.
    private static func range(_ fields: SceneFieldReader, _ key: String, lowest: Double,
                              allowsLowest: Bool) throws -> ClosedRange<Float>? {
        guard let value = fields.value(key) else { return nil }
        let bound = allowsLowest ? ">= \(JSONValue.number(lowest).jsonText)" : "> \(JSONValue.number(lowest).jsonText)"
        let expectation = "a number \(bound) or [lo, hi] with \(bound.replacingOccurrences(of: ">", with: "lo >")) and lo <= hi"
        func fits(_ item: JSONValue) -> Float? {
            guard case .number(let number) = item, Float(number).isFinite,
                  allowsLowest ? number >= lowest : number > lowest else { return nil }
            return Float(number)
        }
        if let single = fits(value) { return single...single }
        guard case .array(let items) = value, items.count == 2, let low = fits(items[0]), let high = fits(items[1]), low <= high else {
            throw fields.error("\"\(key)\" must be \(expectation), got \(SceneFieldReader.excerpt(of: value))")
        }
        return low...high
    }

    /// `curves`: property -> `{"parameter", "points"}`, in property order.
    private static func curves(_ fields: SceneFieldReader, parameters: [String: SceneParameter]) throws -> [SceneCue.Curve] {
        guard let value = fields.value("curves") else { return [] }
        guard case .object(let entries) = value else {
            throw fields.error("\"curves\" must be an object of property -> curve, got \(SceneFieldReader.excerpt(of: value))")
        }
        var curves: [SceneCue.Curve] = []
        for (key, entry) in entries {
            guard let property = CueCurve.Property(rawValue: key) else {
                let names = CueCurve.Property.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
                throw fields.error("unknown curve property \(SceneFieldReader.quoted(key)): one of \(names)")
            }
            let curveFields = try SceneFieldReader(entry, context: "\(fields.context): \(key) curve", allowedKeys: ["parameter", "points"])
            let parameter = try curveFields.require("parameter", curveFields.name)
            guard parameters[parameter] != nil else {
                throw curveFields.error("parameter \(SceneFieldReader.quoted(parameter)) is not in \"parameters\"")
            }
            let points = try curvePoints(curveFields)
            let curve = CueCurve(property, parameter: parameter, points: points)
            do {
                try curve.validate(in: "points")
            } catch let error as InterludeError {
                throw curveFields.error(error.message)
            }
            curves.append(SceneCue.Curve(property: property, parameter: parameter, points: points))
        }
        return curves.sorted { $0.property.rawValue < $1.property.rawValue }
    }

    private static func curvePoints(_ fields: SceneFieldReader) throws -> [CueCurve.Point] {
        let expectation = "an array of one or more [x, y] points, x strictly increasing"
        let value = try fields.require("points", fields.value)
        guard case .array(let items) = value, !items.isEmpty else {
            throw fields.error("\"points\" must be \(expectation), got \(SceneFieldReader.excerpt(of: value))")
        }
        return try items.map { item in
            guard case .array(let pair) = item, pair.count == 2, case .number(let x) = pair[0], case .number(let y) = pair[1],
                  Float(x).isFinite, Float(y).isFinite else {
                throw fields.error("\"points\" must be \(expectation), got \(SceneFieldReader.excerpt(of: item))")
            }
            return CueCurve.Point(x: Float(x), y: Float(y))
        }
    }

    /// Every `cue`, `parameter` and snapshot event names what the scene declares, and a
    /// parameter's value is in its range.
    static func checkDesignEvents(_ events: [SceneEvent], fileName: String, cues: [String: SceneCue],
                                  parameters: [String: SceneParameter], snapshots: [String: SceneMixSnapshot]) throws {
        for event in events {
            let context = "\(fileName): event \(event.index) (\(event.action.name))"
            switch event.action {
            case .cue(let play) where cues[play.cue] == nil:
                throw SceneFieldReader.error(context, "cue \(SceneFieldReader.quoted(play.cue)) is not in \"cues\"")
            case .parameter(let name, let value, _):
                guard let parameter = parameters[name] else {
                    throw SceneFieldReader.error(context, "parameter \(SceneFieldReader.quoted(name)) is not in \"parameters\"")
                }
                guard parameter.min <= value && value <= parameter.max else {
                    throw SceneFieldReader.error(context, "\"value\" \(JSONValue(value).jsonText) is outside \(SceneFieldReader.quoted(name))'s range \(JSONValue(parameter.min).jsonText)...\(JSONValue(parameter.max).jsonText)")
                }
            case .snapshotStart(let name, _) where snapshots[name] == nil, .snapshotStop(let name, _) where snapshots[name] == nil:
                throw SceneFieldReader.error(context, "snapshot \(SceneFieldReader.quoted(name)) is not in \"snapshots\"")
            default:
                continue
            }
        }
    }
}
