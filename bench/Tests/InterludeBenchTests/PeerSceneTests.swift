import BenchKit
import Foundation
import PeerLoop
import Testing

extension BenchSuites {
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
            let player = PeerPlayer.interlude(folder: try ProductProcess.executable("InterludePlayer").deletingLastPathComponent(),
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

            // Its threads, and its resident memory by mapping: OpenAL Soft and Swift's runtime among them.
            #expect((result.extras["threads"] ?? 0) >= 2, "\(result.extras)")
            #expect(result.mappingKiB.keys.contains { $0.hasPrefix("libopenal") }, "\(result.mappingKiB.keys.sorted())")
            #expect(result.mappingKiB.keys.contains { $0.hasPrefix("libswiftCore") })

            // The table: Interlude's own rows, then Interlude against itself, every ratio 1 and
            // every min / min 1.
            let rows = Bench.peerRows(interlude: player, results: [result], peers: [(player, [result])])
            let own = 4 + PeerFigures.percentiles.count
            #expect(rows.count == own + 3 + PeerFigures.percentiles.count)
            #expect(rows.prefix(own).allSatisfy { $0.ratio == nil && $0.baseline == nil })
            #expect(rows.dropFirst(own).allSatisfy { $0.ratio == 1 && $0.minRatio == 1 })
            #expect(rows.filter { $0.goal != nil }.count == 2 + 1, "the p99.9 and max goals, and the CPU goal against the one peer")
            let markdown = BenchReport(rounds: 1, isQuick: true, rows: rows, notes: [])
                .markdown
            #expect(markdown.contains("| 11 | Peers | \(player.name) vs \(player.name)"))
        }

        /// The Swift floor plays the scene's loop with no audio library: every call made and
        /// timed, nothing playing, no OpenAL mapped; Interlude's rows above it add the RSS above
        /// the floor, and the memory table maps what Interlude adds.
        @Test func theSwiftFloorRunsTheLoopWithNoAudioLibrary() throws {
            let bench = try Bench(sizes: .quick)
            let scene = try bench.peerScene(seconds: 0.5)
            let folder = try ProductProcess.executable("BenchFloor").deletingLastPathComponent()
            let floor = try #require(PeerPlayer.floors(swiftFolder: folder, peersFolder: nil).first)
            #expect(floor.isFloor && floor.language == .swift)
            let samplesPath = FileManager.default.temporaryDirectory.appendingPathComponent("peer-floor-test-\(getpid()).bin").path
            defer { try? FileManager.default.removeItem(atPath: samplesPath) }
            let floorResult = try floor.run(scene, samplesPath: samplesPath)
            #expect(floorResult.voicesPlaying == 0 && !floorResult.isMusicPlaying)
            #expect(floorResult.latency.totalCount == UInt64(scene.positionCallCount))
            #expect(floorResult.mappingKiB.keys.contains { $0.hasPrefix("libFoundation") }, "\(floorResult.mappingKiB.keys.sorted())")
            #expect(!floorResult.mappingKiB.keys.contains { $0.hasPrefix("libopenal") })
            #expect(floorResult.extras["threads"] == 1)

            let player = PeerPlayer.interlude(folder: folder)
            let result = try player.run(scene, samplesPath: samplesPath)
            let rows = Bench.peerRows(interlude: player, results: [result], peers: [(player, [result])],
                                      floors: [(floor, [floorResult])])
            let above = try #require(rows.first { $0.key == "peers/rss-above-floor/Interlude" })
            #expect(above.engine == Double(result.peakResidentKiB - floorResult.peakResidentKiB) / 1_024)
            let versus = try #require(rows.first { $0.key == "peers/vs/Interlude/Interlude/rss-above-floor" })
            #expect(versus.ratio == 1 && versus.minRatio == 1)

            let mapping = Bench.mappingRows(name: player.name, PeerFigures([result]), floorName: floor.name, PeerFigures([floorResult]))
            let total = try #require(mapping.last)
            #expect(total.key == "memory-mapping-total")
            #expect(abs((total.engine ?? 0) - Double(result.mappingKiB.values.reduce(0, +)) / 1_024) < 1e-9)
            let openAL = try #require(mapping.first { $0.key?.hasPrefix("memory-mapping/libopenal") == true })
            #expect(openAL.baseline == 0 && (openAL.engine ?? 0) > 0)
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
            // What the Swift players read back.
            let parsed = try #require(PeerSceneArguments(scene.arguments(samplesPath: "/s.bin")))
            #expect(parsed.seconds == 2 && parsed.emitterCount == 8 && parsed.musicPath == "/m.ogg")
            #expect(parsed.soundPaths == ["/a.wav", "/b.wav"] && parsed.samplesPath == "/s.bin")
            #expect(parsed.tickCount == 200)
            #expect(scene.positionCallCount == 1_600)
        }
    }
}
