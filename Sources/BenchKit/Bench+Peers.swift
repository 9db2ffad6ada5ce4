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

    /// Runs scenario 11: each of `interludes` (Interlude's ways of running) against each of `peers`.
    public func peers(interludes: [PeerPlayer], peers: [PeerPlayer], seconds: Double, rounds: Int) throws -> [BenchRow] {
        let results = try peerResults(players: interludes + peers, seconds: seconds, rounds: rounds)
        let others = Array(zip(peers, results.dropFirst(interludes.count)))
        return zip(interludes, results).flatMap { interlude, ownResults in
            Self.peerRows(interlude: interlude, results: ownResults, peers: others)
        }
    }

    /// The rows of scenario 11 for one of Interlude's players: its own figures (with issue 15's
    /// latency goals: the soundtrack streams throughout), then for each peer CPU per second of
    /// audio and the game thread's share of it (medians of rounds), peak RSS (largest of rounds)
    /// and the position call's latency percentiles (every round's calls), with Interlude's figure
    /// as the engine column and the ratio Interlude / peer.
    public static func peerRows(interlude player: PeerPlayer, results interlude: [PeerResult],
                                peers: [(PeerPlayer, [PeerResult])]) -> [BenchRow] {
        let scenario = "11. Peers"
        let name = player.name
        let figures = PeerFigures(interlude)
        let goals: [Double: (String, Double)] = [99.9: ("<= 20 µs", 20), 100: ("<= 1 ms", 1_000)]
        var rows = [
            BenchRow(scenario: scenario, measure: "\(name) (\(player.method)): CPU per second of audio, 64 voices moved every 10 ms + Ogg soundtrack, real time",
                     unit: "s/s", engine: figures.cpuPerAudioSecond, engineSamples: figures.cpuSamples),
            BenchRow(scenario: scenario, measure: "\(name): the game thread's share of that CPU (its calls, loop and sleeps)",
                     unit: "s/s", engine: figures.gameThreadCPUPerAudioSecond, engineSamples: figures.gameThreadCPUSamples),
            BenchRow(scenario: scenario, measure: String(format: "\(name): peak RSS (%.1f MiB at start, before the engine)", figures.startMiB),
                     unit: "MiB", engine: figures.peakMiB),
        ]
        rows += PeerFigures.percentiles.map { label, percentile in
            let value = figures.latency(percentile)
            let goal = goals[percentile]
            return BenchRow(scenario: scenario, measure: "\(name): setPosition on the game thread while the soundtrack streams, \(label)",
                            unit: "µs", engine: value, goal: goal?.0, isGoalMet: goal.map { value <= $0.1 })
        }
        for (peer, results) in peers {
            let other = PeerFigures(results)
            let cpuRatio = figures.cpuPerAudioSecond / other.cpuPerAudioSecond
            rows.append(BenchRow(scenario: scenario, measure: "\(name) vs \(peer.name) (\(peer.method)): CPU per second of audio, 64 voices moved every 10 ms + Ogg soundtrack, real time",
                                 unit: "s/s", engine: figures.cpuPerAudioSecond, baseline: other.cpuPerAudioSecond, ratio: cpuRatio,
                                 ratioMeaning: "\(name) / \(peer.name)", goal: "< 1", isGoalMet: cpuRatio < 1,
                                 engineSamples: figures.cpuSamples, baselineSamples: other.cpuSamples))
            rows.append(BenchRow(scenario: scenario, measure: "\(name) vs \(peer.name): the game thread's CPU per second of audio",
                                 unit: "s/s", engine: figures.gameThreadCPUPerAudioSecond, baseline: other.gameThreadCPUPerAudioSecond,
                                 ratio: figures.gameThreadCPUPerAudioSecond / other.gameThreadCPUPerAudioSecond,
                                 ratioMeaning: "\(name) / \(peer.name)",
                                 engineSamples: figures.gameThreadCPUSamples, baselineSamples: other.gameThreadCPUSamples))
            rows.append(BenchRow(scenario: scenario, measure: String(format: "\(name) vs \(peer.name): peak RSS (at start, before the library: %.1f vs %.1f MiB)", figures.startMiB, other.startMiB), unit: "MiB", engine: figures.peakMiB,
                                 baseline: other.peakMiB, ratio: figures.peakMiB / other.peakMiB, ratioMeaning: "\(name) / \(peer.name)"))
            for (label, percentile) in PeerFigures.percentiles {
                let ratio = figures.latency(percentile) / other.latency(percentile)
                rows.append(BenchRow(scenario: scenario, measure: "\(name) vs \(peer.name): one position update on the game thread, \(label)", unit: "µs",
                                     engine: figures.latency(percentile), baseline: other.latency(percentile), ratio: ratio,
                                     ratioMeaning: "\(name) / \(peer.name)"))
            }
        }
        return rows
    }
}
