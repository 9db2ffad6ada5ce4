import Foundation

/// One line of the results table.
public struct BenchRow: Codable, Sendable {
    public var scenario: String
    public var measure: String
    public var unit: String
    public var engine: Double?
    public var baseline: Double?
    /// engine / baseline, as `ratioMeaning` says: of the medians of rounds for costs and throughputs
    /// (of the figure over every round for latency percentiles).
    public var ratio: Double?
    /// The same ratio of each side's best round: the lowest cost over the lowest cost, the highest
    /// throughput over the highest throughput.
    public var minRatio: Double?
    public var ratioMeaning: String?
    public var goal: String?
    public var isGoalMet: Bool?
    public var engineSamples: [Double]?
    public var baselineSamples: [Double]?
    /// A stable name that scripts/bench-tables.py finds the row by, for the rows the docs' tables show.
    public var key: String?

    /// A row; with a `ratio` and both sides' samples (costs, one per round), `minRatio` defaults to
    /// the lowest engine sample over the lowest baseline sample.
    public init(scenario: String, measure: String, unit: String, engine: Double?, baseline: Double? = nil,
                ratio: Double? = nil, minRatio: Double? = nil, ratioMeaning: String? = nil, goal: String? = nil,
                isGoalMet: Bool? = nil, engineSamples: [Double]? = nil, baselineSamples: [Double]? = nil, key: String? = nil) {
        self.scenario = scenario
        self.measure = measure
        self.unit = unit
        self.engine = engine
        self.baseline = baseline
        self.ratio = ratio
        if ratio != nil, minRatio == nil, let lowestEngine = engineSamples?.min(), let lowestBaseline = baselineSamples?.min() {
            self.minRatio = lowestEngine / lowestBaseline
        } else {
            self.minRatio = minRatio
        }
        self.ratioMeaning = ratioMeaning
        self.goal = goal
        self.isGoalMet = isGoalMet
        self.engineSamples = engineSamples
        self.baselineSamples = baselineSamples
        self.key = key
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
            "Machine: \(cpuModel), \(coreCount) cores. Medians of \(rounds) rounds per side, engine and baseline alternating; CPU time is the process's user + system time. Each ratio is median / median, with min / min (each side's best round) beside it.",
            "",
        ] + Self.tableLines(rows)
        if !notes.isEmpty {
            lines.append("")
            lines += notes.map { "- \($0)" }
        }
        return lines.joined(separator: "\n")
    }

    /// `rows` as a Markdown table: number, scenario, measure, both sides, the ratio of medians
    /// and of minimums, the goal and whether it was met.
    static func tableLines(_ rows: [BenchRow]) -> [String] {
        var lines = [
            "| # | Scenario | Measure | Engine | C baseline or peer | Ratio, median / median | min / min | Goal | Met |",
            "|---|---|---|---:|---:|---:|---:|---|---|",
        ]
        for row in rows {
            let met = row.isGoalMet.map { $0 ? "yes" : "**no**" } ?? ""
            let ratio = row.ratio.map { Self.format($0) + (row.ratioMeaning.map { " (\($0))" } ?? "") } ?? ""
            // "10. Click latency" -> "10" and "Click latency".
            let number = row.scenario.prefix { $0 != "." }
            let title = row.scenario.dropFirst(number.count).drop { $0 == "." || $0 == " " }
            lines.append("| \(number) | \(title) | \(row.measure) | \(row.engine.map { Self.format($0) + " " + row.unit } ?? "") | \(row.baseline.map { Self.format($0) + " " + row.unit } ?? "") | \(ratio) | \(row.minRatio.map(Self.format) ?? "") | \(row.goal ?? "") | \(met) |")
        }
        return lines
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
