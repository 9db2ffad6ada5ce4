import Foundation

/// The tables docs/performance.md, README.md and docs/stacks.md show, generated from a bench run's JSON so they
/// cannot be typed by hand or go stale. Each sits between two marker comments,
/// `<!-- bench:NAME:begin -->` and `<!-- bench:NAME:end -->`; ``rewrite(_:file:root:)`` replaces
/// what is between them. `InterludeBench --tables [--check]` (`make bench-tables`) runs it over
/// the docs, and a test fails when a committed table differs from what the committed JSON gives.
///
/// docs/performance.md shows one full `make bench` run, section by section, so each of its tables
/// is small: a scenario whose rows repeat a pattern (a percentile, a player, a setting) gets a
/// table of its own shape, one line per player or setting. A table whose scenarios the run lacks
/// says so in place of its rows.
public struct BenchTables: Sendable {
    /// The run the tables show.
    private let report: BenchReport
    /// Where the run was read from, as the tables' header names it.
    private let source: String

    /// The names of the tables, as the markers spell them.
    public static let names = ["source", "run", "scenes", "update", "decoding", "sound-memory", "start", "recovery",
                               "clicks", "change", "peers", "players", "peer-ratios", "idle", "memory", "resamplers",
                               "stalls", "lock", "design", "stacks"]

    /// The tables that stand alone (the README's, docs/stacks.md's, the whole run) and so name
    /// their run in a header line of their own; the others are sections of docs/performance.md,
    /// whose `source` block names the run once for the page.
    static let namesWithHeader: Set<String> = ["source", "run", "peers", "stacks"]

    /// The scenarios each table is made from: a table says which of them the run lacks.
    static let scenarios: [String: [Int]] = [
        "scenes": [1, 2], "update": [4], "decoding": [3, 8, 12, 13], "sound-memory": [7], "start": [19],
        "recovery": [5, 6, 9, 14], "clicks": [10, 15], "change": [22], "peers": [11], "players": [11],
        "peer-ratios": [11], "idle": [11, 19], "memory": [11], "resamplers": [18], "stalls": [16], "lock": [17],
        "design": [20, 21], "stacks": [10],
    ]

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
    /// from another run's JSON, PATH relative to `root`: only docs/stacks.md does, for its
    /// `--stacks` run, which is not a `make bench` run. Throws for a name it does not know, or a
    /// block that does not end.
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
        case "source": return header
        case "run":
            let rows = report.rows.filter { !$0.scenario.hasPrefix("11.") }
            body = rows.isEmpty ? ["<sub>This run has no scenario but 11: `make bench` measures them all.</sub>"] : BenchReport.tableLines(rows)
        case "scenes": body = generic(name) { [1, 2].contains(Self.number(of: $0)) }
        case "update": body = update()
        case "decoding": body = generic(name) { [3, 8, 12, 13].contains(Self.number(of: $0)) }
        case "sound-memory": body = generic(name) { Self.number(of: $0) == 7 }
        case "start": body = start()
        case "recovery": body = generic(name) { [5, 6, 9, 14].contains(Self.number(of: $0)) }
        case "clicks": body = clicks()
        case "change": body = change()
        case "peers": body = peers()
        case "players": body = players()
        case "peer-ratios": body = peerRatios()
        case "idle": body = idle()
        case "memory": body = memory()
        case "resamplers": body = resamplers()
        case "stalls": body = stalls()
        case "lock": body = lock()
        case "design": body = generic(name) { [20, 21].contains(Self.number(of: $0)) }
        case "stacks": body = stacks()
        default: return nil
        }
        return (Self.namesWithHeader.contains(name) ? [header, ""] + body : body).joined(separator: "\n")
    }

    /// Which run the table comes from.
    private var header: String {
        let sizes = report.isQuick ? "; quick sizes (`--quick`): the code paths ran, the figures are not ones to quote" : ""
        return "<sub>Generated by `make bench-tables` from \(source): run of \(report.date), \(report.cpuModel), \(report.coreCount) cores, \(report.rounds) rounds per side\(sizes).</sub>"
    }

    /// `rows` grouped by what their measure says before ": " (its lead), leads in the order first
    /// seen; each group holds the rows whose measure begins with its lead and ": ".
    static func byLead(_ rows: [BenchRow]) -> [(lead: String, rows: [BenchRow])] {
        var leads: [String] = []
        for row in rows {
            let lead = String(row.measure[..<(row.measure.range(of: ": ")?.lowerBound ?? row.measure.endIndex)])
            if !leads.contains(lead) { leads.append(lead) }
        }
        return leads.map { lead in (lead, rows.filter { $0.measure.hasPrefix(lead + ": ") }) }
    }

    /// The scenario number a row belongs to ("10. Click latency (...)" is 10).
    static func number(of row: BenchRow) -> Int? { Int(row.scenario.prefix { $0 != "." }) }

    /// The scenarios of table `name` that the run has no row of.
    private func missing(_ name: String) -> [Int] {
        let present = Set(report.rows.compactMap(Self.number))
        return (Self.scenarios[name] ?? []).filter { !present.contains($0) }
    }

    /// What stands for a table, or follows it, when the run lacks some of its scenarios.
    private func lacking(_ numbers: [Int]) -> String {
        let list = numbers.map(String.init).joined(separator: ",")
        let which = numbers.count == 1 ? "scenario \(list)" : "scenarios \(numbers.map(String.init).joined(separator: ", "))"
        return "<sub>This run has no \(which): `make bench BENCH_FLAGS=\"--only \(list)\"` measures \(numbers.count == 1 ? "it" : "them").</sub>"
    }

    /// `lines`, a table of table `name`'s rows, or the note that the run lacks them (`isEmpty`),
    /// and after a table the note that it lacks some of its scenarios.
    private func complete(_ name: String, _ lines: [String], isEmpty: Bool) -> [String] {
        let absent = missing(name)
        if isEmpty { return [lacking(absent.isEmpty ? Self.scenarios[name] ?? [] : absent)] }
        return absent.isEmpty ? lines : lines + ["", lacking(absent)]
    }

    /// The run's rows that `include` picks, in the whole run's table's columns.
    private func generic(_ name: String, _ include: (BenchRow) -> Bool) -> [String] {
        let rows = report.rows.filter(include)
        return complete(name, BenchReport.tableLines(rows), isEmpty: rows.isEmpty)
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
        return complete("peers", lines, isEmpty: reference == nil && peerNames.isEmpty)
    }

    /// `figure` in bold when it misses its goal.
    private func marked(_ figure: String, _ row: BenchRow?) -> String { row?.isGoalMet == false ? "**\(figure)**" : figure }

    /// A position call's p50 / p99.9 / max for `player`: Interlude's from its own rows, a peer's
    /// from the first comparison with it; a floor has none.
    private func positionCall(_ player: String) -> String {
        let labels = ["p50", "p99.9", "max"]
        let own = labels.map { label in
            report.rows.first { Self.number(of: $0) == 11 && $0.measure == "\(player): setPosition on the game thread while the soundtrack streams, \(label)" }
        }
        if own.allSatisfy({ $0 != nil }) { return own.map { marked(value($0?.engine), $0) }.joined(separator: " / ") }
        let versus = labels.map { label in
            report.rows.first { $0.key?.hasPrefix("peers/vs/") == true && $0.key?.hasSuffix("/\(player)/latency-\(label)") == true }
        }
        guard versus.allSatisfy({ $0 != nil }) else { return "–" }
        return versus.map { value($0?.baseline) }.joined(separator: " / ")
    }

    /// Every player of scenario 11, floors included: CPU, the game thread's, memory, threads,
    /// the position call's cost.
    private func players() -> [String] {
        var lines = ["| player | CPU per second of audio, median (s) | of it on the game thread (s) | peak RSS, median (MiB) | above its language's floor (MiB) | threads | position call p50 / p99.9 / max (µs) |",
                     "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
        var count = 0
        for cpu in report.rows where cpu.key?.hasPrefix("peers/cpu/") == true {
            let name = String(cpu.key!.dropFirst("peers/cpu/".count))
            let above = name.hasSuffix("floor") ? "(the floor)" : value(row("peers/rss-above-floor/\(name)")?.engine)
            lines.append("| \(name) | \(value(cpu.engine)) | \(value(row("peers/game-thread-cpu/\(name)")?.engine)) | \(value(row("peers/rss/\(name)")?.engine)) | \(above) | \(value(row("peers/threads/\(name)")?.engine)) | \(name.hasSuffix("floor") ? "–" : positionCall(name)) |")
            count += 1
        }
        return complete("players", lines, isEmpty: count == 0)
    }

    /// Each of Interlude's players against each peer, one line each: every measure's ratio,
    /// median / median then min / min, in bold where its goal is missed.
    private func peerRatios() -> [String] {
        var lines = ["| Interlude, as it ran | against | CPU | the game thread's CPU | peak RSS above the floor | position call p50 | p99 | p99.9 | max |",
                     "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
        let measures = ["cpu", "game-thread-cpu", "rss-above-floor", "latency-p50", "latency-p99", "latency-p99.9", "latency-max"]
        var count = 0
        for cpu in report.rows where cpu.key?.hasPrefix("peers/vs/") == true && cpu.key?.hasSuffix("/cpu") == true {
            let parts = cpu.key!.split(separator: "/").map(String.init)
            guard parts.count == 5 else { continue }
            let cells = measures.map { measure -> String in
                guard let ratio = row("peers/vs/\(parts[2])/\(parts[3])/\(measure)") else { return "–" }
                return "\(marked(value(ratio.ratio), ratio)) / \(value(ratio.minRatio))"
            }
            lines.append("| \(parts[2]) | \(parts[3]) | \(cells.joined(separator: " | ")) |")
            count += 1
        }
        return complete("peer-ratios", lines, isEmpty: count == 0)
    }

    /// An idle engine: scenario 11's (the default configuration), scenario 19's on each output
    /// with the output paused and kept running, then scenario 11's thread by thread.
    private func idle() -> [String] {
        var lines = ["| an engine open, nothing playing | CPU (% of a core) | wake-ups per second | threads | goal | met |",
                     "| --- | ---: | ---: | ---: | --- | --- |"]
        func line(_ label: String, cpu: BenchRow?, wakeups: BenchRow?, threads: BenchRow?) -> String {
            let goals = [cpu?.goal.map { "CPU " + $0.replacingOccurrences(of: "%", with: "") }, wakeups?.goal.map { "wake-ups " + $0 }].compactMap { $0 }
            let judged = [cpu, wakeups].compactMap { $0?.isGoalMet }
            let met = judged.isEmpty ? "" : judged.allSatisfy { $0 } ? "yes" : "**no**"
            return "| \(label) | \(value(cpu?.engine)) | \(value(wakeups?.engine)) | \(value(threads?.engine)) | \(goals.joined(separator: ", ")) | \(met) |"
        }
        var count = 0
        if row("idle/cpu") != nil {
            lines.append(line("default configuration, null backend (scenario 11)", cpu: row("idle/cpu"), wakeups: row("idle/wakeups"), threads: row("idle/threads")))
            count += 1
        }
        // Scenario 19: "open engine[, output kept running (...)], nothing playing, OUTPUT: WHAT".
        let idleRows = report.rows.filter { Self.number(of: $0) == 19 && $0.measure.contains("nothing playing") }
        for (kind, rows) in Self.byLead(idleRows) {
            let label = kind.replacingOccurrences(of: "open engine, ", with: "").replacingOccurrences(of: "nothing playing, ", with: "")
            lines.append(line((label.hasPrefix("output kept running") ? label : "default configuration, " + label) + " (scenario 19)",
                              cpu: rows.first { $0.measure.contains(": CPU") }, wakeups: rows.first { $0.measure.contains(": wake-ups") },
                              threads: rows.first { $0.measure.contains(": threads") }))
            count += 1
        }
        // Scenario 11's engine thread by thread, in one line under the table.
        var threads: [String] = []
        var asleep: [String] = []
        for wakeups in report.rows where wakeups.key?.hasPrefix("idle/thread-wakeups/") == true {
            let name = String(wakeups.key!.dropFirst("idle/thread-wakeups/".count))
            let cpu = row("idle/thread-cpu/\(name)")?.engine
            if (wakeups.engine ?? 0) == 0 && (cpu ?? 0) == 0 {
                asleep.append(name)
            } else {
                threads.append("\(name) \(value(wakeups.engine)) and \(value(cpu))")
            }
        }
        if !asleep.isEmpty { threads.append("asleep: \(asleep.joined(separator: ", "))") }
        if !threads.isEmpty {
            lines += ["", "<sub>Scenario 11's engine thread by thread, wake-ups per second and % of a core: \(threads.joined(separator: "; ")).</sub>"]
        }
        return complete("idle", lines, isEmpty: count == 0)
    }

    /// Scenario 19's start-up, one line per way of making the engine and output: how long the
    /// game's frame loop was held up, and when it had its engine.
    private func start() -> [String] {
        var lines = ["| the engine made by | output | the game thread's longest frame block | first frame to engine ready | goal | met |",
                     "| --- | --- | ---: | ---: | --- | --- |"]
        let rows = report.rows.filter { Self.number(of: $0) == 19 && !$0.measure.contains("nothing playing") }
        let ways = Self.byLead(rows)
        for (way, own) in ways {
            let block = own.first { $0.measure.contains("longest frame block") }, ready = own.first { $0.measure.contains("engine ready") }
            let parts = way.components(separatedBy: " on ")
            lines.append("| `\(parts[0])` | \(parts.dropFirst().joined(separator: " on ")) | \(marked(value(block?.engine, block?.unit ?? ""), block)) | \(value(ready?.engine, ready?.unit ?? "")) | \(block?.goal ?? "") | \(met(block)) |")
        }
        return complete("start", lines, isEmpty: ways.isEmpty)
    }

    /// Scenario 22, one line per update timing: how many changes the next mix played, and how
    /// long they took to be heard.
    private func change() -> [String] {
        var lines = ["| update timing | changes heard in the next mix | the others | mean time from the call to its mix | goal | met |",
                     "| --- | ---: | --- | ---: | --- | --- |"]
        let rows = report.rows.filter { Self.number(of: $0) == 22 }
        let timings = Self.byLead(rows)
        for (what, own) in timings {
            let next = own.first { $0.measure.contains("heard in the next mix") }, mean = own.first { $0.measure.contains("mean time") }
            // "heard in the next mix (96 in the second, 0 later, of 400)"
            let others = next.flatMap { row in row.measure.range(of: "(").map { String(row.measure[$0.upperBound...].dropLast()) } } ?? "–"
            lines.append("| `\(what.components(separatedBy: ", ").last ?? what)` | \(marked(value(next?.engine, next?.unit ?? ""), next)) | \(others) | \(value(mean?.engine, mean?.unit ?? "")) | \(next?.goal ?? "") | \(met(next)) |")
        }
        return complete("change", lines, isEmpty: timings.isEmpty)
    }

    /// Scenario 4, one line per size: the update's time, still and with the listener moving,
    /// and its heap allocations.
    private func update() -> [String] {
        var lines = ["| logical voices (64 real) | time per update() | the same, listener moved before each | heap allocations per update() | per render(frameCount: 480), its array included | goal | met |",
                     "| ---: | ---: | ---: | ---: | ---: | --- | --- |"]
        let rows = report.rows.filter { Self.number(of: $0) == 4 }
        var counts: [String] = []
        for row in rows {
            let count = String(row.measure.prefix { $0 != " " })
            if !counts.contains(count) { counts.append(count) }
        }
        for count in counts {
            let own = rows.filter { $0.measure.hasPrefix("\(count) logical voices") }
            func figure(_ part: String) -> BenchRow? { own.first { $0.measure.contains(part) } }
            let goals = own.compactMap { row in row.goal.map { row.measure.contains("allocations") ? "\($0) allocations" : $0 } }
            var unique: [String] = []
            for goal in goals where !unique.contains(goal) { unique.append(goal) }
            let judged = own.compactMap(\.isGoalMet)
            let met = judged.isEmpty ? "" : judged.allSatisfy { $0 } ? "yes" : "**no**"
            let time = figure("time per update()"), moved = figure("listener moved")
            lines.append("| \(count) | \(marked(value(time?.engine, time?.unit ?? ""), time)) | \(marked(value(moved?.engine, moved?.unit ?? ""), moved)) | \(marked(value(figure("allocations per update()")?.engine), figure("allocations per update()"))) | \(value(figure("allocations per render(")?.engine)) | \(unique.joined(separator: "; ")) | \(met) |")
        }
        return complete("update", lines, isEmpty: counts.isEmpty)
    }

    /// Scenario 10 (on the bench's own PulseAudio server), one line per player and setting, with
    /// scenario 15's gaps beside the engine's.
    private func clicks() -> [String] {
        var lines = ["| player, setting | open to ready, median | open to the first click heard, median | start-up: clicks lost; first click, worst | steady: p50 / p99; lost | rebuild: lost; first click, worst | switch: lost; first click, worst | underruns: gaps in the tone (scenario 15) |",
                     "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
        // "10. Click latency (PLAYER, LATENCY, N starts)": a --stacks run's rows name a stack too.
        var scenarios: [String] = []
        for row in report.rows where row.scenario.hasPrefix("10. Click latency (") && !scenarios.contains(row.scenario) {
            if row.scenario.dropFirst("10. Click latency (".count).dropLast().components(separatedBy: ", ").count == 3 { scenarios.append(row.scenario) }
        }
        for scenario in scenarios {
            let words = scenario.dropFirst("10. Click latency (".count).dropLast().components(separatedBy: ", ")
            let rows = report.rows.filter { $0.scenario == scenario }
            func figure(_ prefix: String) -> BenchRow? { rows.first { $0.measure.hasPrefix(prefix) } }
            func lost(_ phase: String) -> String {
                guard let row = figure("\(phase): clicks lost of ") else { return "–" }
                let played = row.measure.dropFirst("\(phase): clicks lost of ".count).prefix { $0 != " " }
                return "\(value(row.engine)) of \(played)"
            }
            func phase(_ name: String) -> String {
                guard figure("\(name): clicks lost of ") != nil else { return "–" }
                return "\(lost(name)); \(value(figure("\(name): first click, worst")?.engine, "ms"))"
            }
            let steady = "\(value(figure("steady: p50 latency")?.engine)) / \(value(figure("steady: p99 latency")?.engine, "ms")); \(lost("steady"))"
            var gaps = "–"
            if words[0] == "interlude", let gapRow = report.rows.first(where: { $0.scenario.hasPrefix("15. Underruns (\(words[1]),") && $0.measure.hasPrefix("gaps") }) {
                let length = gapRow.scenario.dropFirst("15. Underruns (\(words[1]), ".count).prefix { $0 != "," }
                gaps = "\(value(gapRow.engine)) in \(length)"
            }
            lines.append("| \(words[0]), \(words[1]) (\(words[2])) | \(value(figure("open to ready")?.engine, "ms")) | \(value(figure("open to the first click heard")?.engine, "ms")) | \(phase("start-up")) | \(steady) | \(phase("rebuild")) | \(phase("switch")) | \(gaps) |")
        }
        return complete("clicks", lines, isEmpty: scenarios.isEmpty)
    }

    /// Scenario 18, one line per resampler: the reference scene's CPU against C's, and how far
    /// apart the two renders are.
    private func resamplers() -> [String] {
        var lines = ["| resampler | engine | C | median / median | min / min | goal | met | renders' RMS difference / RMS signal |",
                     "| --- | ---: | ---: | ---: | ---: | --- | --- | ---: |"]
        var names: [String] = []
        for row in report.rows where row.scenario.hasPrefix("18. Resampler ") && !names.contains(row.scenario) { names.append(row.scenario) }
        for scenario in names {
            let rows = report.rows.filter { $0.scenario == scenario }
            let cpu = rows.first { $0.ratio != nil }, difference = rows.first { $0.measure.contains("RMS difference") }
            lines.append("| \(scenario.dropFirst("18. Resampler ".count)) | \(value(cpu?.engine, cpu?.unit ?? "")) | \(value(cpu?.baseline, cpu?.unit ?? "")) | \(value(cpu?.ratio)) | \(value(cpu?.minRatio)) | \(cpu?.goal ?? "") | \(met(cpu)) | \(marked(value(difference?.engine), difference)) |")
        }
        return complete("resamplers", lines, isEmpty: names.isEmpty)
    }

    /// "p50 / p99 / p99.9 / max" of the rows whose measures are `prefix` then ", LABEL", each in
    /// bold where it misses its goal; with the goals, as "LABEL GOAL".
    private func percentiles(_ rows: [BenchRow], _ prefix: String) -> (figures: String, goals: [String], judged: [Bool]) {
        var figures: [String] = [], goals: [String] = [], judged: [Bool] = []
        for (label, _) in PeerFigures.percentiles {
            guard let row = rows.first(where: { $0.measure.hasPrefix(prefix) && $0.measure.hasSuffix(", \(label)") }) else { continue }
            figures.append(marked(value(row.engine), row))
            if let goal = row.goal { goals.append("\(label) \(goal)") }
            if let met = row.isGoalMet { judged.append(met) }
        }
        return (figures.isEmpty ? "–" : figures.joined(separator: " / "), goals, judged)
    }

    /// Scenario 16, one line per buffer size: the game thread's calls while a read stalls, and
    /// the soundtrack's underruns.
    private func stalls() -> [String] {
        var lines = ["| stream buffers | setPosition p50 / p99 / p99.9 / max (µs) | play p50 / p99 / p99.9 / max (µs) | underruns; recovered on their frame | goal | met |",
                     "| --- | ---: | ---: | ---: | --- | --- |"]
        var names: [String] = []
        for row in report.rows where row.scenario.hasPrefix("16. ") && !names.contains(row.scenario) { names.append(row.scenario) }
        for scenario in names {
            let rows = report.rows.filter { $0.scenario == scenario }
            let positions = percentiles(rows, "setPosition"), plays = percentiles(rows, "play")
            let underruns = rows.first { $0.measure.hasPrefix("soundtrack underruns") }
            let recovered = rows.first { $0.measure.hasPrefix("underruns that recovered") }
            let goals = positions.goals + (recovered?.goal.map { ["recovered: \($0)"] } ?? [])
            let judged = positions.judged + (recovered?.isGoalMet.map { [$0] } ?? [])
            let buffers = scenario.drop { $0 != "(" }.dropFirst().dropLast()
            lines.append("| \(buffers) | \(positions.figures) | \(plays.figures) | \(value(underruns?.engine)); \(marked(value(recovered?.engine), recovered)) | \(goals.joined(separator: ", ")) | \(judged.isEmpty ? "" : judged.allSatisfy { $0 } ? "yes" : "**no**") |")
        }
        return complete("stalls", lines, isEmpty: names.isEmpty)
    }

    /// Scenario 17, one line per situation: a game thread's setPosition while something slow runs.
    private func lock() -> [String] {
        var lines = ["| setPosition on the game thread while | p50 (µs) | p99.9 (µs) | max (µs) | goal | met |",
                     "| --- | ---: | ---: | ---: | --- | --- |"]
        let rows = report.rows.filter { Self.number(of: $0) == 17 }
        let lead = "setPosition on the game thread while "
        var situations: [String] = []
        for row in rows where row.measure.hasPrefix(lead) {
            let rest = row.measure.dropFirst(lead.count)
            let situation = String(rest[..<(rest.range(of: ", ", options: .backwards)?.lowerBound ?? rest.endIndex)])
            if !situations.contains(situation) { situations.append(situation) }
        }
        for situation in situations {
            let own = rows.filter { $0.measure.hasPrefix(lead + situation + ", ") }
            func figure(_ label: String) -> BenchRow? { own.first { $0.measure.hasSuffix(", \(label)") } }
            // The counts of what ran meanwhile, beside the situation they belong to.
            let count = situation.contains("reopen") ? rows.first { $0.measure.hasPrefix("setPosition calls made") }.map { "; \(value($0.engine)) calls made" }
                : situation.contains("snapshots") ? rows.first { $0.measure.hasPrefix("snapshots written") }.map { "; \(value($0.engine)) snapshots written" } : nil
            let goals = own.compactMap { row in row.goal.map { "\(row.measure.components(separatedBy: ", ").last ?? "") \($0)" } }
            let judged = own.compactMap(\.isGoalMet)
            lines.append("| \(situation)\(count ?? "") | \(marked(value(figure("p50")?.engine), figure("p50"))) | \(marked(value(figure("p99.9")?.engine), figure("p99.9"))) | \(marked(value(figure("max")?.engine), figure("max"))) | \(goals.joined(separator: ", ")) | \(judged.isEmpty ? "" : judged.allSatisfy { $0 } ? "yes" : "**no**") |")
        }
        return complete("lock", lines, isEmpty: situations.isEmpty)
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
        return complete("stacks", lines, isEmpty: scenarios.isEmpty)
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

    /// Interlude's resident memory by mapping against the Swift floor's: the four that differ most,
    /// by 0.1 MiB or more; the rest are summed into one line.
    private func memory() -> [String] {
        var lines = ["| mapping | Interlude (MiB) | Swift floor (MiB) | Interlude above the floor (MiB) |", "| --- | ---: | ---: | ---: |"]
        var rest = (engine: 0.0, floor: 0.0, count: 0)
        var listed = 0
        for mapping in report.rows where mapping.key?.hasPrefix("memory-mapping/") == true {
            let engine = mapping.engine ?? 0, floor = mapping.baseline ?? 0
            if abs(engine - floor) < 0.1 || listed == 4 {
                rest = (rest.engine + engine, rest.floor + floor, rest.count + 1)
                continue
            }
            let name = String(mapping.key!.dropFirst("memory-mapping/".count))
            lines.append("| \(name) | \(value(engine)) | \(value(floor)) | \(value(engine - floor)) |")
            listed += 1
        }
        if rest.count > 0 {
            lines.append("| \(rest.count) more mappings\(listed == 4 ? "" : ", each within 0.1 MiB of the floor's") | \(value(rest.engine)) | \(value(rest.floor)) | \(value(rest.engine - rest.floor)) |")
        }
        if let total = row("memory-mapping-total") {
            lines.append("| **every mapping (RSS at the end of the scene)** | \(value(total.engine)) | \(value(total.baseline)) | \(value((total.engine ?? 0) - (total.baseline ?? 0))) |")
        }
        return complete("memory", lines, isEmpty: row("memory-mapping-total") == nil)
    }
}
