import Foundation

/// The tables docs/performance.md, README.md and docs/stacks.md show, generated from a bench run's JSON so they
/// cannot be typed by hand or go stale. Each sits between two marker comments,
/// `<!-- bench:NAME:begin -->` and `<!-- bench:NAME:end -->`; ``rewrite(_:file:)`` replaces
/// what is between them. `InterludeBench --tables [--check]` (`make bench-tables`) runs it over
/// the docs, and a test fails when a committed table differs from what the committed JSON gives.
public struct BenchTables: Sendable {
    /// The run the tables show.
    private let report: BenchReport
    /// Where the run was read from, as the tables' header names it.
    private let source: String

    /// The names of the tables, as the markers spell them.
    public static let names = ["run", "peers", "players", "peer-ratios", "idle", "memory", "stacks"]

    /// Tables of `report`, read from `source`.
    public init(report: BenchReport, source: String) {
        self.report = report
        self.source = source
    }

    /// Tables of the run in the JSON file at `path`, named in the header as `source`.
    public init(jsonPath path: String, source: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        do {
            self.init(report: try JSONDecoder().decode(BenchReport.self, from: data), source: source)
        } catch {
            throw BenchError("\(path): not a bench run's JSON: \(error)")
        }
    }

    /// The snapshot the docs' tables come from, and the files that hold them, relative to the
    /// repository's root.
    public static let snapshotPath = "docs/bench-results.json"
    public static let documentPaths = ["docs/performance.md", "README.md", "docs/stacks.md"]

    /// Rewrites the tables of ``documentPaths`` under `root` from ``snapshotPath`` (or, with
    /// `checkOnly`, writes nothing); returns the files whose tables were, or would be, changed.
    public static func update(root: URL, checkOnly: Bool) throws -> [String] {
        let tables = try BenchTables(jsonPath: root.appendingPathComponent(snapshotPath).path, source: snapshotPath)
        var changed: [String] = []
        for path in documentPaths {
            let url = root.appendingPathComponent(path)
            let text = try String(contentsOf: url, encoding: .utf8)
            let rewritten = try tables.rewrite(text, file: path, root: root)
            guard rewritten != text else { continue }
            changed.append(path)
            if !checkOnly { try rewritten.write(to: url, atomically: true, encoding: .utf8) }
        }
        return changed
    }

    /// `text` with every marker block's content replaced by its table. A marker is a line of its
    /// own (so prose can quote one inline). `<!-- bench:NAME from PATH:begin -->` takes the table
    /// from another run's JSON, PATH relative to `root` (a run kept beside the snapshot, say one
    /// made on a quiet machine). Throws for a name it does not know, or a block that does not end.
    public func rewrite(_ text: String, file: String, root: URL? = nil) throws -> String {
        var output: [Substring] = []
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
        while let line = lines.popFirst() {
            output.append(line)
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("<!-- bench:"), trimmed.hasSuffix(":begin -->") else { continue }
            let spec = String(trimmed.dropFirst("<!-- bench:".count).dropLast(":begin -->".count))
            let parts = spec.components(separatedBy: " from ")
            let name = parts[0]
            let tables = if parts.count == 2, let root {
                try BenchTables(jsonPath: root.appendingPathComponent(parts[1]).path, source: parts[1])
            } else {
                self
            }
            guard let table = tables.table(named: name) else {
                throw BenchError("\(file): no bench table is named \(name) (known: \(Self.names.joined(separator: ", ")))")
            }
            let endMarker = "<!-- bench:\(spec):end -->"
            guard let end = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == endMarker }) else {
                throw BenchError("\(file): <!-- bench:\(name):begin --> has no \(endMarker) line")
            }
            output.append(Substring(table))
            lines = lines[end...]
        }
        return output.joined(separator: "\n")
    }

    /// The table named `name` (one of ``names``), or nil.
    public func table(named name: String) -> String? {
        let body: [String]
        switch name {
        case "run": body = BenchReport.tableLines(report.rows.filter { !$0.scenario.hasPrefix("11.") })
        case "peers": body = peers()
        case "players": body = players()
        case "peer-ratios": body = peerRatios()
        case "idle": body = idle()
        case "memory": body = memory()
        case "stacks": body = stacks()
        default: return nil
        }
        return ([header, ""] + body).joined(separator: "\n")
    }

    /// Which run the table comes from.
    private var header: String {
        let sizes = report.isQuick ? "; quick sizes (`--quick`): the code paths ran, the figures are not ones to quote" : ""
        return "<sub>Generated by `make bench-tables` from \(source): run of \(report.date), \(report.cpuModel), \(report.coreCount) cores, \(report.rounds) rounds per side\(sizes).</sub>"
    }

    private func row(_ key: String) -> BenchRow? { report.rows.first { $0.key == key } }

    private func value(_ number: Double?, _ unit: String = "") -> String {
        guard let number else { return "–" }
        return BenchReport.format(number) + (unit.isEmpty ? "" : " " + unit)
    }

    private func met(_ row: BenchRow?) -> String { row?.isGoalMet.map { $0 ? "yes" : "**no**" } ?? "" }

    /// The peers Interlude (its default configuration) was compared with, in the run's order.
    private var peerNames: [String] {
        report.rows.compactMap { row -> String? in
            guard let key = row.key, key.hasPrefix("peers/vs/Interlude/"), key.hasSuffix("/cpu") else { return nil }
            return key.split(separator: "/").dropFirst(3).first.map(String.init)
        }
    }

    /// Interlude against raw C and each peer: CPU both ways, and RSS above the language's floor.
    private func peers() -> [String] {
        var lines = ["| Interlude (default configuration) against | CPU, median / median | CPU, min / min | RSS above the language's floor: Interlude / peer |",
                     "| --- | ---: | ---: | ---: |"]
        let reference = row("reference/cpu")
        lines.append("| raw C (OpenAL Soft + libvorbisfile; the reference scene, offline) | \(value(reference?.ratio)) | \(value(reference?.minRatio)) | – (same process) |")
        // Instructions do not vary between runs; a run with valgrind has them (scenario 1).
        for (key, moves) in [("reference/instructions", "a setPosition per voice"), ("reference/instructions-batch", "setPositions")] {
            guard let instructions = row(key) else { continue }
            lines.append("| raw C, in instructions (callgrind, \(moves); the reference scene, offline) | \(value(instructions.ratio)) | – | – (same process) |")
        }
        for peer in peerNames {
            let cpu = row("peers/vs/Interlude/\(peer)/cpu")
            let memory = row("peers/vs/Interlude/\(peer)/rss-above-floor")
            let rss = memory.map { "\(value($0.engine)) / \(value($0.baseline)) MiB = \(value($0.ratio))" } ?? "–"
            lines.append("| \(peer) (the real-time scene) | \(value(cpu?.ratio)) | \(value(cpu?.minRatio)) | \(rss) |")
        }
        return lines
    }

    /// Every player of scenario 11, floors included: CPU, the game thread's, memory, threads.
    private func players() -> [String] {
        var lines = ["| player | CPU per second of audio, median (s) | of it on the game thread (s) | peak RSS, median (MiB) | above its language's floor (MiB) | threads |",
                     "| --- | ---: | ---: | ---: | ---: | ---: |"]
        for cpu in report.rows where cpu.key?.hasPrefix("peers/cpu/") == true {
            let name = String(cpu.key!.dropFirst("peers/cpu/".count))
            let above = name.hasSuffix("floor") ? "(the floor)" : value(row("peers/rss-above-floor/\(name)")?.engine)
            lines.append("| \(name) | \(value(cpu.engine)) | \(value(row("peers/game-thread-cpu/\(name)")?.engine)) | \(value(row("peers/rss/\(name)")?.engine)) | \(above) | \(value(row("peers/threads/\(name)")?.engine)) |")
        }
        return lines
    }

    /// Every comparison of Interlude's players with a peer.
    private func peerRatios() -> [String] {
        var lines = ["| measure | Interlude | peer | median / median | min / min | goal | met |",
                     "| --- | ---: | ---: | ---: | ---: | --- | --- |"]
        for ratio in report.rows where ratio.key?.hasPrefix("peers/vs/") == true {
            lines.append("| \(ratio.measure) | \(value(ratio.engine, ratio.unit)) | \(value(ratio.baseline, ratio.unit)) | \(value(ratio.ratio)) | \(value(ratio.minRatio)) | \(ratio.goal ?? "") | \(met(ratio)) |")
        }
        return lines
    }

    /// The idle engine, whole and thread by thread.
    private func idle() -> [String] {
        var lines = ["| an engine open, nothing playing | measured | goal | met |", "| --- | ---: | --- | --- |"]
        for key in ["idle/cpu", "idle/wakeups", "idle/threads"] {
            guard let figure = row(key) else { continue }
            lines.append("| \(figure.measure.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)) | \(value(figure.engine, figure.unit)) | \(figure.goal ?? "") | \(met(figure)) |")
        }
        lines += ["", "| thread | wake-ups per second | CPU (% of a core) |", "| --- | ---: | ---: |"]
        for wakeups in report.rows where wakeups.key?.hasPrefix("idle/thread-wakeups/") == true {
            let name = String(wakeups.key!.dropFirst("idle/thread-wakeups/".count))
            lines.append("| \(name) | \(value(wakeups.engine)) | \(value(row("idle/thread-cpu/\(name)")?.engine)) |")
        }
        return lines
    }

    /// Scenario 10 on each stack (`--stacks`): raw OpenAL against the engine at start-up.
    private func stacks() -> [String] {
        var lines = ["| stack (release/server) | player | open to ready, median | open to the first click heard, median | start-up clicks lost | first click's latency, worst | steady latency, p50 |",
                     "| --- | --- | ---: | ---: | ---: | ---: | ---: |"]
        // "10. Click latency (PLAYER, LATENCY, N starts, RELEASE/SERVER)"
        var scenarios: [String] = []
        for row in report.rows where row.scenario.hasPrefix("10. Click latency (") && row.scenario.contains("/") && !scenarios.contains(row.scenario) {
            scenarios.append(row.scenario)
        }
        for scenario in scenarios {
            let words = scenario.dropFirst("10. Click latency (".count).dropLast().components(separatedBy: ", ")
            guard words.count == 4 else { continue }
            let rows = report.rows.filter { $0.scenario == scenario }
            func figure(_ prefix: String) -> BenchRow? { rows.first { $0.measure.hasPrefix(prefix) } }
            let lost = figure("start-up: clicks lost of ")
            let played = lost.map { String($0.measure.dropFirst("start-up: clicks lost of ".count).prefix { $0 != " " }) } ?? "?"
            lines.append("| \(words[3]) | \(words[0]) (\(words[2])) | \(value(figure("open to ready")?.engine, "ms")) | \(value(figure("open to the first click heard")?.engine, "ms")) | \(value(lost?.engine)) of \(played) | \(value(figure("start-up: first click, worst")?.engine, "ms")) | \(value(figure("steady: p50 latency")?.engine, "ms")) |")
        }
        return lines
    }

    /// The start-up and latency cells of docs/stacks.md's stack-by-behaviour table, from a
    /// `--stacks` run: `STACK-CELL<TAB>stack<TAB>behaviour<TAB>text` lines, which
    /// scripts/stack-table.sh keeps (the server tests print the other cells the same way).
    public func stackCells() -> [String] {
        let servers = ["pulse": "PulseAudio", "pipewire-pulse": "PipeWire (pipewire-pulse)", "pipewire": "PipeWire (native backend)"]
        var cells: [String] = []
        var stacks: [String] = []
        for row in report.rows where row.scenario.hasPrefix("10. Click latency (") && row.scenario.contains("/") {
            let words = row.scenario.dropFirst("10. Click latency (".count).dropLast().components(separatedBy: ", ")
            if words.count == 4, !stacks.contains(words[3]) { stacks.append(words[3]) }
        }
        for stack in stacks {
            let parts = stack.split(separator: "/", maxSplits: 1).map(String.init)
            guard parts.count == 2, let server = servers[parts[1]] else { continue }
            func figure(_ player: String, _ prefix: String) -> BenchRow? {
                report.rows.first { $0.scenario.hasPrefix("10. Click latency (\(player), ") && $0.scenario.hasSuffix(", \(stack))") && $0.measure.hasPrefix(prefix) }
            }
            let name = "\(parts[0]) / \(server)"
            let lost = { (player: String) in figure(player, "start-up: clicks lost of ").map { row in
                "\(value(row.engine)) of \(row.measure.dropFirst("start-up: clicks lost of ".count).prefix { $0 != " " })" } ?? "?" }
            cells.append("STACK-CELL\t\(name)\tstart-up\tready \(value(figure("interlude", "open to ready")?.engine, "ms")), first click heard \(value(figure("interlude", "open to the first click heard")?.engine, "ms")), \(lost("interlude")) clicks lost (raw OpenAL: \(value(figure("raw", "open to the first click heard")?.engine, "ms")), \(lost("raw")) lost)")
            cells.append("STACK-CELL\t\(name)\tlatency\tsteady \(value(figure("interlude", "steady: p50 latency")?.engine, "ms")) (raw OpenAL \(value(figure("raw", "steady: p50 latency")?.engine, "ms")))")
        }
        return cells
    }

    /// Interlude's resident memory by mapping against the Swift floor's; mappings that differ by
    /// less than 0.05 MiB are summed into one line.
    private func memory() -> [String] {
        var lines = ["| mapping | Interlude (MiB) | Swift floor (MiB) | Interlude above the floor (MiB) |", "| --- | ---: | ---: | ---: |"]
        var rest = (engine: 0.0, floor: 0.0, count: 0)
        for mapping in report.rows where mapping.key?.hasPrefix("memory-mapping/") == true {
            let engine = mapping.engine ?? 0, floor = mapping.baseline ?? 0
            if abs(engine - floor) < 0.05 {
                rest = (rest.engine + engine, rest.floor + floor, rest.count + 1)
                continue
            }
            let name = String(mapping.key!.dropFirst("memory-mapping/".count))
            lines.append("| \(name) | \(value(engine)) | \(value(floor)) | \(value(engine - floor)) |")
        }
        if rest.count > 0 {
            lines.append("| \(rest.count) more mappings, each within 0.05 MiB of the floor's | \(value(rest.engine)) | \(value(rest.floor)) | \(value(rest.engine - rest.floor)) |")
        }
        if let total = row("memory-mapping-total") {
            lines.append("| **every mapping (RSS at the end of the scene)** | \(value(total.engine)) | \(value(total.baseline)) | \(value((total.engine ?? 0) - (total.baseline ?? 0))) |")
        }
        return lines
    }
}
