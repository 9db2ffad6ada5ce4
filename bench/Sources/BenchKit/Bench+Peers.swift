import Foundation
import Histogram

/// Scenario 11: Interlude and the libraries a Linux game developer would pick instead, on one
/// real-time scene, each in its own process.
extension Bench {
    /// The peer scene: the reference scene's voices, the bench's sounds as 16-bit WAV files and
    /// the scene's soundtrack, for `seconds`.
    public func peerScene(seconds: Double) throws -> PeerScene {
        PeerScene(seconds: seconds, emitterCount: sizes.referenceEmitterCount, musicPath: sceneTrackPath,
                  soundPaths: try BenchAssets.wavFiles(runner.sounds))
    }

    /// Plays the peer scene `rounds` times with every player, the order turning each round.
    public func peerResults(players: [PeerPlayer], seconds: Double, rounds: Int) throws -> [[PeerResult]] {
        let scene = try peerScene(seconds: seconds)
        let samplesPath = BenchAssets.cacheFolder + "/peer-samples-\(getpid()).bin"
        defer { try? FileManager.default.removeItem(atPath: samplesPath) }
        var results = players.map { _ in [PeerResult]() }
        for round in 0..<rounds {
            for offset in players.indices {
                let index = (offset + round) % players.count
                progress("11. peers: \(players[index].name), round \(round + 1) of \(rounds), \(Int(seconds)) s")
                results[index].append(try players[index].run(scene, samplesPath: samplesPath))
            }
        }
        return results
    }

    /// Runs scenario 11: each of `interludes` (Interlude's ways of running) against each of
    /// `peers`, every player also above its language's floor among `floors`; then the first of
    /// `interludes` (the default configuration) by mapping against the Swift floor.
    public func peers(interludes: [PeerPlayer], peers: [PeerPlayer], floors: [PeerPlayer] = [], seconds: Double,
                      rounds: Int) throws -> [BenchRow] {
        let results = try peerResults(players: interludes + peers + floors, seconds: seconds, rounds: rounds)
        let others = Array(zip(peers, results.dropFirst(interludes.count)))
        let floorResults = Array(zip(floors, results.suffix(floors.count)))
        var rows = floorResults.flatMap { floor, results in Self.ownRows(floor, PeerFigures(results)) }
        rows += others.flatMap { peer, results in Self.ownRows(peer, PeerFigures(results), floors: floorResults) }
        rows += zip(interludes, results).flatMap { interlude, ownResults in
            Self.peerRows(interlude: interlude, results: ownResults, peers: others, floors: floorResults)
        }
        if let first = interludes.first, let floor = floorResults.first(where: { $0.0.language == first.language }) {
            rows += Self.mappingRows(name: first.name, PeerFigures(results[0]), floorName: floor.0.name, PeerFigures(floor.1))
        }
        return rows
    }

    /// A player's own rows: CPU per second of audio, its game thread's share, peak RSS, threads,
    /// and peak RSS above its language's floor among `floors`.
    static func ownRows(_ player: PeerPlayer, _ figures: PeerFigures, floors: [(PeerPlayer, [PeerResult])] = []) -> [BenchRow] {
        let scenario = "11. Peers"
        let name = player.name
        var rows = [
            BenchRow(scenario: scenario, measure: "\(name) (\(player.method)): CPU per second of audio, 64 voices moved every 10 ms + Ogg soundtrack, real time",
                     unit: "s/s", engine: figures.cpuPerAudioSecond, engineSamples: figures.cpuSamples, key: "peers/cpu/\(name)"),
            BenchRow(scenario: scenario, measure: "\(name): the game thread's share of that CPU (its calls, loop and sleeps)",
                     unit: "s/s", engine: figures.gameThreadCPUPerAudioSecond, engineSamples: figures.gameThreadCPUSamples,
                     key: "peers/game-thread-cpu/\(name)"),
            BenchRow(scenario: scenario, measure: String(format: "\(name): peak RSS (%.1f MiB at start, before the library)", figures.startMiB),
                     unit: "MiB", engine: figures.peakMiB, engineSamples: figures.peakSamples, key: "peers/rss/\(name)"),
        ]
        if !figures.threadSamples.isEmpty {
            rows.append(BenchRow(scenario: scenario, measure: "\(name): threads at the end of the scene", unit: "",
                                 engine: Measure.median(figures.threadSamples), engineSamples: figures.threadSamples,
                                 key: "peers/threads/\(name)"))
        }
        if let (floor, floorResults) = floors.first(where: { $0.0.language == player.language }) {
            rows.append(BenchRow(scenario: scenario, measure: "\(name): peak RSS above the \(floor.name) (\(floor.method))",
                                 unit: "MiB", engine: figures.peakMiB(above: PeerFigures(floorResults)), key: "peers/rss-above-floor/\(name)"))
        }
        return rows
    }

    /// The rows of scenario 11 for one of Interlude's players: its own figures (with issue 15's
    /// latency goals: the soundtrack streams throughout), its peak RSS above its language's floor,
    /// then for each peer CPU per second of audio and the game thread's share of it (medians of
    /// rounds), peak RSS and peak RSS above each one's floor (medians of rounds) and the position
    /// call's latency percentiles (every round's calls), with Interlude's figure as the engine
    /// column and the ratio Interlude / peer, min / min beside it.
    public static func peerRows(interlude player: PeerPlayer, results interlude: [PeerResult],
                                peers: [(PeerPlayer, [PeerResult])], floors: [(PeerPlayer, [PeerResult])] = []) -> [BenchRow] {
        let scenario = "11. Peers"
        let name = player.name
        let figures = PeerFigures(interlude)
        let floorFigures = floors.map { ($0.0, PeerFigures($0.1)) }
        func floor(of player: PeerPlayer) -> (PeerPlayer, PeerFigures)? { floorFigures.first { $0.0.language == player.language } }
        let goals: [Double: (String, Double)] = [99.9: ("<= 20 µs", 20), 100: ("<= 1 ms", 1_000)]
        var rows = ownRows(player, figures, floors: floors)
        rows += PeerFigures.percentiles.map { label, percentile in
            let value = figures.latency(percentile)
            let goal = goals[percentile]
            return BenchRow(scenario: scenario, measure: "\(name): setPosition on the game thread while the soundtrack streams, \(label)",
                            unit: "µs", engine: value, goal: goal?.0, isGoalMet: goal.map { value <= $0.1 })
        }
        for (peer, results) in peers {
            let other = PeerFigures(results)
            let cpuRatio = figures.cpuPerAudioSecond / other.cpuPerAudioSecond
            let versus = "peers/vs/\(name)/\(peer.name)"
            rows.append(BenchRow(scenario: scenario, measure: "\(name) vs \(peer.name) (\(peer.method)): CPU per second of audio, 64 voices moved every 10 ms + Ogg soundtrack, real time",
                                 unit: "s/s", engine: figures.cpuPerAudioSecond, baseline: other.cpuPerAudioSecond, ratio: cpuRatio,
                                 ratioMeaning: "\(name) / \(peer.name)", goal: "< 1", isGoalMet: cpuRatio < 1,
                                 engineSamples: figures.cpuSamples, baselineSamples: other.cpuSamples, key: "\(versus)/cpu"))
            rows.append(BenchRow(scenario: scenario, measure: "\(name) vs \(peer.name): the game thread's CPU per second of audio",
                                 unit: "s/s", engine: figures.gameThreadCPUPerAudioSecond, baseline: other.gameThreadCPUPerAudioSecond,
                                 ratio: figures.gameThreadCPUPerAudioSecond / other.gameThreadCPUPerAudioSecond,
                                 ratioMeaning: "\(name) / \(peer.name)",
                                 engineSamples: figures.gameThreadCPUSamples, baselineSamples: other.gameThreadCPUSamples,
                                 key: "\(versus)/game-thread-cpu"))
            rows.append(BenchRow(scenario: scenario, measure: String(format: "\(name) vs \(peer.name): peak RSS (at start, before the library: %.1f vs %.1f MiB)", figures.startMiB, other.startMiB), unit: "MiB", engine: figures.peakMiB,
                                 baseline: other.peakMiB, ratio: figures.peakMiB / other.peakMiB, ratioMeaning: "\(name) / \(peer.name)",
                                 engineSamples: figures.peakSamples, baselineSamples: other.peakSamples, key: "\(versus)/rss"))
            if let (ownFloor, ownFloorFigures) = floor(of: player), let (peerFloor, peerFloorFigures) = floor(of: peer) {
                let above = figures.peakMiB(above: ownFloorFigures)
                let otherAbove = other.peakMiB(above: peerFloorFigures)
                rows.append(BenchRow(scenario: scenario,
                                     measure: String(format: "\(name) vs \(peer.name): peak RSS above each one's floor (%@ %.1f MiB, %@ %.1f MiB)",
                                                     ownFloor.name, ownFloorFigures.peakMiB, peerFloor.name, peerFloorFigures.peakMiB),
                                     unit: "MiB", engine: above, baseline: otherAbove, ratio: above / otherAbove,
                                     minRatio: figures.lowestPeakMiB(above: ownFloorFigures) / other.lowestPeakMiB(above: peerFloorFigures),
                                     ratioMeaning: "\(name) / \(peer.name)", goal: "<= 1.0", isGoalMet: above <= otherAbove,
                                     key: "\(versus)/rss-above-floor"))
            }
            for (label, percentile) in PeerFigures.percentiles {
                let ratio = figures.latency(percentile) / other.latency(percentile)
                rows.append(BenchRow(scenario: scenario, measure: "\(name) vs \(peer.name): one position update on the game thread, \(label) (of every round's calls; min / min: each side's best round)", unit: "µs",
                                     engine: figures.latency(percentile), baseline: other.latency(percentile), ratio: ratio,
                                     ratioMeaning: "\(name) / \(peer.name)", engineSamples: figures.latencySamples[percentile],
                                     baselineSamples: other.latencySamples[percentile], key: "\(versus)/latency-\(label)"))
            }
        }
        return rows
    }

    /// Where `name`'s resident memory at the end of the scene goes, mapping by mapping, against
    /// the floor program's (`floorName`): one row per mapping, the largest difference first,
    /// then the totals.
    public static func mappingRows(name: String, _ figures: PeerFigures, floorName: String, _ floor: PeerFigures) -> [BenchRow] {
        let names = Set(figures.mappingMiB.keys).union(floor.mappingMiB.keys)
        let ordered = names.sorted {
            let left = (figures.mappingMiB[$0] ?? 0) - (floor.mappingMiB[$0] ?? 0)
            let right = (figures.mappingMiB[$1] ?? 0) - (floor.mappingMiB[$1] ?? 0)
            return left != right ? left > right : $0 < $1
        }
        let rows = ordered.map { mapping in
            BenchRow(scenario: "11. Peers", measure: "\(name) vs \(floorName): resident at the end of the scene, \(mapping)",
                     unit: "MiB", engine: figures.mappingMiB[mapping] ?? 0, baseline: floor.mappingMiB[mapping] ?? 0,
                     key: "memory-mapping/\(mapping)")
        }
        return rows + [BenchRow(scenario: "11. Peers", measure: "\(name) vs \(floorName): resident at the end of the scene, every mapping",
                                unit: "MiB", engine: figures.mappingMiB.values.reduce(0, +), baseline: floor.mappingMiB.values.reduce(0, +),
                                key: "memory-mapping-total")]
    }
}
