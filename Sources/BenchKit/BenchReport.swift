import Foundation

/// One line of the results table.
public struct BenchRow: Codable, Sendable {
    public var scenario: String
    public var measure: String
    public var unit: String
    public var engine: Double?
    public var baseline: Double?
    /// engine / baseline for costs; baseline / engine for throughput (higher is better), as `ratioMeaning` says.
    public var ratio: Double?
    public var ratioMeaning: String?
    public var goal: String?
    public var isGoalMet: Bool?
    public var engineSamples: [Double]?
    public var baselineSamples: [Double]?

    public init(scenario: String, measure: String, unit: String, engine: Double?, baseline: Double? = nil,
                ratio: Double? = nil, ratioMeaning: String? = nil, goal: String? = nil, isGoalMet: Bool? = nil,
                engineSamples: [Double]? = nil, baselineSamples: [Double]? = nil) {
        self.scenario = scenario
        self.measure = measure
        self.unit = unit
        self.engine = engine
        self.baseline = baseline
        self.ratio = ratio
        self.ratioMeaning = ratioMeaning
        self.goal = goal
        self.isGoalMet = isGoalMet
        self.engineSamples = engineSamples
        self.baselineSamples = baselineSamples
    }
}

/// The whole run: the machine, the sizes and every row.
public struct BenchReport: Codable, Sendable {
    public var date: String
    public var cpuModel: String
    public var coreCount: Int
    public var rounds: Int
    public var isQuick: Bool
    public var rows: [BenchRow]
    public var notes: [String]

    public init(rounds: Int, isQuick: Bool, rows: [BenchRow], notes: [String]) {
        date = ISO8601DateFormatter().string(from: Date())
        cpuModel = Self.cpuModel()
        coreCount = ProcessInfo.processInfo.activeProcessorCount
        self.rounds = rounds
        self.isQuick = isQuick
        self.rows = rows
        self.notes = notes
    }

    static func cpuModel() -> String {
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return "unknown" }
        for line in text.split(separator: "\n") where line.hasPrefix("model name") {
            return line.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown"
        }
        return "unknown"
    }

    /// The Markdown table.
    public var markdown: String {
        var lines = [
            "Machine: \(cpuModel), \(coreCount) cores. Medians of \(rounds) rounds per side, engine and baseline alternating; CPU time is the process's user + system time.",
            "",
            "| # | Scenario | Measure | Engine | C baseline | Ratio | Goal | Met |",
            "|---|---|---|---:|---:|---:|---|---|",
        ]
        for row in rows {
            let met = row.isGoalMet.map { $0 ? "yes" : "**no**" } ?? ""
            let ratio = row.ratio.map { Self.format($0) + (row.ratioMeaning.map { " (\($0))" } ?? "") } ?? ""
            // "10. Click latency" -> "10" and "Click latency".
            let number = row.scenario.prefix { $0 != "." }
            let title = row.scenario.dropFirst(number.count).drop { $0 == "." || $0 == " " }
            lines.append("| \(number) | \(title) | \(row.measure) | \(row.engine.map { Self.format($0) + " " + row.unit } ?? "") | \(row.baseline.map { Self.format($0) + " " + row.unit } ?? "") | \(ratio) | \(row.goal ?? "") | \(met) |")
        }
        if !notes.isEmpty {
            lines.append("")
            lines += notes.map { "- \($0)" }
        }
        return lines.joined(separator: "\n")
    }

    static func format(_ value: Double) -> String {
        if value == value.rounded() && abs(value) < 1e9 { return String(Int(value)) }
        if abs(value) >= 100 { return String(format: "%.0f", value) }
        if abs(value) >= 10 { return String(format: "%.1f", value) }
        if abs(value) >= 1 { return String(format: "%.2f", value) }
        return String(format: "%.3g", value)
    }

    /// The JSON, pretty printed.
    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }
}
