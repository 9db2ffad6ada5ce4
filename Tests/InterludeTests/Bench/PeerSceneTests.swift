import BenchKit
import Foundation
import Testing

extension EngineSuites {
    /// Scenario 11 (the peers) at a tiny size: each of Interlude's players (updated by the driver
    /// thread, or by the game loop) plays the real-time scene for 1.5 s in its own process, as
    /// the bench runs it. These check that the scene played (voices,
    /// soundtrack, every call timed) and what the table is built from, never how fast it ran.
    /// The peer harnesses themselves are the bench's alone (`make bench-peers`).
    @Suite struct PeerSceneTests {
        @Test(arguments: [false, true])
        func interludePlaysThePeerSceneInItsOwnProcess(updatesOnGameThread: Bool) throws {
            let bench = try Bench(sizes: .quick)
            let scene = try bench.peerScene(seconds: 1.5)
            let player = PeerPlayer.interlude(benchExecutable: try ProductProcess.executable("InterludeBench"),
                                              updatesOnGameThread: updatesOnGameThread)
            let samplesPath = FileManager.default.temporaryDirectory.appendingPathComponent("peer-scene-test-\(getpid()).bin").path
            defer { try? FileManager.default.removeItem(atPath: samplesPath) }
            // run() throws unless every voice and the soundtrack played to the end and every call was timed.
            let result = try player.run(scene, samplesPath: samplesPath)
            #expect(result.voicesPlaying == 64)
            #expect(result.extras["real_voices"] == 64, "every voice on a real source: \(result.extras)")
            #expect(result.isMusicPlaying)
            // The soundtrack (a 2 s, 48 kHz track) played on past the 0.8 s its queue holds when it
            // starts: only updates (the driver's, or the game loop's) queue more.
            #expect((result.extras["music_frames"] ?? 0) >= 43_200, "\(result.extras)")
            #expect(result.audioSeconds >= 1.5)
            #expect(result.latency.totalCount == UInt64(scene.positionCallCount))
            #expect(result.peakResidentKiB >= result.startResidentKiB)
            // The game thread's share: some CPU (its calls and the loop), never more than the process's.
            #expect(result.gameThreadCPUSeconds > 0)
            #expect(result.gameThreadCPUSeconds <= result.cpuSeconds, "\(result.gameThreadCPUSeconds) of \(result.cpuSeconds)")

            let figures = PeerFigures([result])
            let percentiles = PeerFigures.percentiles.map { figures.latency($0.1) }
            #expect(percentiles.allSatisfy { $0 > 0 })
            #expect(percentiles == percentiles.sorted(), "p50 <= p99 <= p99.9 <= max: \(percentiles)")

            // The table: Interlude's own rows, then Interlude against itself, every ratio 1.
            let rows = Bench.peerRows(interlude: player, results: [result], peers: [(player, [result])])
            #expect(rows.count == 3 + PeerFigures.percentiles.count + 3 + PeerFigures.percentiles.count)
            #expect(rows.prefix(7).allSatisfy { $0.ratio == nil && $0.baseline == nil })
            #expect(rows.dropFirst(7).allSatisfy { $0.ratio == 1 })
            #expect(rows.filter { $0.goal != nil }.count == 2 + 1, "the p99.9 and max goals, and the CPU goal against the one peer")
            let markdown = BenchReport(rounds: 1, isQuick: true, rows: rows, notes: []).markdown
            #expect(markdown.contains("| 11 | Peers | \(player.name) vs \(player.name)"))
        }

        @Test func peerOutputIsReadAndCheckedForEveryFigure() throws {
            let output = """
                cpu_seconds 0.5
                game_thread_cpu_seconds 0.1
                audio_seconds 20.0
                peak_rss_kib 16000
                start_rss_kib 2000
                position_calls 3
                sample_rate 44100
                voices_playing 64
                music_playing 1
                mixed_frames 882000
                """
            let result = try PeerResult(output: output, samplesNanoseconds: [100, 200, 30_000])
            #expect(result.cpuPerAudioSecond == 0.025)
            #expect(result.gameThreadCPUPerAudioSecond == 0.005)
            #expect(result.extras == ["mixed_frames": 882_000])
            #expect(result.latency.totalCount == 3)
            #expect(result.latency.maxRecorded == 30_000)
            let missing = output.replacingOccurrences(of: "music_playing 1", with: "")
            #expect(throws: BenchError.self) { try PeerResult(output: missing, samplesNanoseconds: []) }
            let scene = PeerScene(seconds: 2, emitterCount: 8, musicPath: "/m.ogg", soundPaths: ["/a.wav", "/b.wav"])
            let parsed = try PeerScene.parse(scene.arguments(samplesPath: "/s.bin"))
            #expect(parsed.scene == scene)
            #expect(parsed.samplesPath == "/s.bin")
            #expect(scene.positionCallCount == 1_600)
        }
    }
}
