import Foundation
@testable import BenchKit
import Interlude
import Testing

extension BenchSuites {
    /// The bench's code paths at a tiny size, so they cannot rot. These check what the bench
    /// computes (renders, frame counts, byte bounds), never how fast it ran.
    @Suite struct BenchSmokeTests {
        let bench: Bench

        init() throws {
            bench = try Bench(sizes: .quick)
        }

        @Test func engineAndBaselineRenderTheSameReferenceScene() throws {
            let (engine, baseline) = try bench.referenceRenders(seconds: 1)
            #expect(engine.count == 48_000 * 2)
            #expect(baseline.count == engine.count)
            let signal = rootMeanSquare(baseline)
            #expect(signal > 0.05, "the baseline scene must be audible, RMS \(signal)")
            #expect(rootMeanSquare(engine) > 0.05)
            // Same OpenAL mixer, same data, same positions: only the order of float sums differs.
            let difference = rootMeanSquareDifference(engine, baseline)
            #expect(difference < signal * 0.01, "engine vs baseline RMS difference \(difference), signal \(signal)")
        }

        /// Scenario 18 compares like with like only if both sides really resample the same way:
        /// each side matches the other at each resampler, and the point and 24-point sinc
        /// renders differ (the sounds are at 44.1 kHz, the output at 48 kHz).
        @Test func engineAndBaselineResampleTheSameWay() throws {
            var renders: [Resampler: [Float]] = [:]
            for resampler in [Resampler.point, .bsinc24] {
                let (engine, baseline) = try bench.resamplerRenders(resampler, seconds: 0.5)
                let signal = rootMeanSquare(baseline)
                #expect(signal > 0.05, "\(resampler): the baseline scene must be audible, RMS \(signal)")
                let difference = rootMeanSquareDifference(engine, baseline)
                #expect(difference < signal * 0.01, "\(resampler): engine vs baseline RMS difference \(difference), signal \(signal)")
                renders[resampler] = engine
            }
            let point = try #require(renders[.point]), sinc = try #require(renders[.bsinc24])
            let apart = rootMeanSquareDifference(point, sinc)
            #expect(apart > rootMeanSquare(sinc) * 0.01, "point and bsinc24 renders differ by only \(apart)")
        }

        @Test func movingVoicesInBatchesRendersTheSameAsOneByOne() throws {
            var spec = SceneSpec(emitterCount: 16, seconds: 0.5, musicPath: nil)
            let oneByOne = try bench.runner.renderEngine(spec, keep: true).samples
            spec.movesInBatches = true
            let batched = try bench.runner.renderEngine(spec, keep: true).samples
            #expect(rootMeanSquare(oneByOne) > 0.01)
            #expect(batched == oneByOne)
        }

        @Test func everyScenarioRunsAndReportsItsRows() throws {
            var rows = try bench.referenceScene()
            rows += try bench.scaling()
            rows += try bench.vorbisDecode()
            rows += try bench.updateCost()
            rows += try bench.rebuild()
            rows += try bench.startup()
            rows += bench.memoryRows(idleKiB: 1_000, streamKiB: 1_500, fullKiB: 3_000)
            let wav = try BenchAssets.wavTrack(seconds: 0.5)
            #expect(try Bench.pcmByteCount(path: wav, bytesPerSample: 2) == 24_000 * 2 * 2)
            rows.append(bench.loadedSoundRow(source: "WAV", pcmFormat: "16 bits", idleKiB: 1_000,
                                             loadedKiB: try Bench.loadIntoEngine(path: wav), pcmBytes: 24_000 * 2 * 2))
            rows.append(bench.placedSoundRow(source: "WAV", pcmFormat: "16 bits", idleKiB: 1_000,
                                             placedKiB: try Bench.loadIntoEngine(path: wav, placed: true), pcmBytes: 24_000 * 2 * 2))
            rows += try AsyncLoadBench.rows(trackSeconds: 0.2, rounds: 1)
            rows += try CodecDecodeBench.rows(seconds: 1, rounds: 1)
            rows += try bench.resamplers()
            let design = try SoundDesignBench.rows(plays: 20, updates: 5, rounds: 1)
            #expect(design.count == 5 && design.allSatisfy { ($0.ratio ?? 0) > 0 })
            rows += design
            let loudnessRows = try LoudnessBench.rows(seconds: 1, rounds: 1)
            #expect(loudnessRows.count == 4)
            rows += loudnessRows
            for row in rows {
                #expect(row.engine.map { $0.isFinite && $0 >= 0 } ?? false, "\(row.scenario): \(row.measure)")
                // Every ratio has min / min beside it.
                #expect((row.ratio == nil) == (row.minRatio == nil), "\(row.scenario): \(row.measure)")
                #expect(row.minRatio.map { $0.isFinite && $0 > 0 } ?? true, "\(row.scenario): \(row.measure)")
            }
            // Past OpenAL's 255 sources the C baseline has no voice budget: the engine is reported alone.
            let pastTheBudget = try #require(rows.first { $0.key == "scaling/300" })
            #expect(pastTheBudget.baseline == nil && pastTheBudget.ratio == nil)
            #expect(rows.first { $0.key == "scaling/32" }?.ratio != nil)
            // A throughput's min / min is best over best: the fastest rounds' times, inverted.
            let decode = try #require(rows.first { $0.scenario == "3. Vorbis decode" })
            let engineTimes = try #require(decode.engineSamples), baselineTimes = try #require(decode.baselineSamples)
            #expect(decode.minRatio == baselineTimes.min()! / engineTimes.min()!)
            let report = BenchReport(rounds: 1, isQuick: true, rows: rows, notes: [])
            #expect(report.markdown.contains("| Ratio, median / median | min / min |"))
            #expect(report.markdown.contains("| 1 | Reference scene |"))
            #expect(report.markdown.contains("| 12 | Async loading |"))
            #expect(try report.json().count > 100)
        }

        /// Scenarios 10 and 11 in their real-time children against a private PulseAudio server,
        /// at their smallest: one start, a short tone. Checks the shape of what they report.
        /// The bench executable, built next to the tests.
        static func benchExecutable() throws -> URL {
            try ProductProcess.executable("InterludeBench")
        }

        @Test func clickLatencyAndUnderrunChildrenReport() throws {
            let benchExecutable = try Self.benchExecutable()
            let runs = try ClickLatency.run(executable: benchExecutable, player: .interlude, latency: .low, starts: 1)
            let run = try #require(runs.first)
            for phase in ClickLatency.Phase.allCases {
                #expect(run.latenciesByPhase[phase]?.count == 6, "\(phase)")
            }
            // The engine's clicks are heard: most of them, whatever the machine's load.
            let heard = run.latenciesByPhase.values.flatMap { $0 }.compactMap { $0 }
            #expect(heard.count >= 12, "heard \(heard.count) of 24")
            #expect(heard.allSatisfy { $0 > 0 && $0 < 1_000 })
            let underruns = try Underruns.run(executable: benchExecutable, latency: .safe, seconds: 2)
            #expect(underruns.checkedSeconds > 0.5)
            let rows = bench.clickLatencyRows([(.interlude, .low, runs)]) + bench.underrunRows([(.safe, underruns)])
            let report = BenchReport(rounds: 1, isQuick: true, rows: rows, notes: [])
            #expect(report.markdown.contains("| 10 | Click latency (interlude, low, 1 starts) |"))
            #expect(report.markdown.contains("| 15 | Underruns (safe,"))
        }

        /// Scenario 16 at its smallest: one 500 ms stall of the soundtrack's reads, in real time.
        /// The small buffers cannot ride it out: the soundtrack runs dry, and plays on from the
        /// frame it stopped at. Checks frames and counts, never how long a call took.
        @Test func stalledReadsRecoverOnTheFrameTheyRanDryAt() throws {
            let runs = try bench.stalledReadRuns(executable: try Self.benchExecutable())
            #expect(runs.count == 2)
            for (name, settings, run) in runs {
                #expect(run.stallCount == 1, "\(name)")
                #expect(run.isMusicPlaying, "\(name)")
                #expect(run.recoveredOnTheirFrames, "\(name): ran dry at \(run.underrunFrames), played on from \(run.recoveryFrames)")
                #expect(run.setPositionCallCount > 0, "\(name): no call was made during the stall")
                let rows = Bench.stalledReadRows(run, name: name, settings: settings)
                let report = BenchReport(rounds: 1, isQuick: true, rows: rows, notes: [])
                #expect(report.markdown.contains("| 16 | Stalled reads (\(name)) |"))
            }
            let small = try #require(runs.last)
            #expect(small.settings.streamBufferSeconds == 0.05)
            #expect(!small.run.underrunFrames.isEmpty, "a 500 ms stall did not run 2 x 50 ms buffers dry")
        }

        @Test func scalingPastTheBudgetKeepsTheEngineOnItsSources() throws {
            let spec = SceneSpec(emitterCount: 300, seconds: 0.2, engineRealVoiceBudget: 64, musicPath: nil)
            let (samples, realVoiceCount) = try bench.runner.renderEngine(spec, keep: true)
            #expect(realVoiceCount == 64)
            #expect(rootMeanSquare(samples) > 0.05)
        }

        @Test(arguments: CodecDecodeBench.Codec.allCases)
        func engineAndCLoopDecodeTheSameFrames(_ codec: CodecDecodeBench.Codec) throws {
            let path = try CodecDecodeBench.track(codec, seconds: 1)
            let engineFrames = try Bench.engineDecode(path: path)
            #expect(engineFrames > 40_000)
            #expect(try CodecDecodeBench.baselineDecode(codec, path: path) == engineFrames)
        }

        @Test func decodersAgreeOnTheTrackLength() throws {
            let path = try bench.longTrackPath
            let engineFrames = try Bench.engineDecode(path: path)
            #expect(engineFrames == 3 * 48_000)
            #expect(try Bench.baselineDecode(path: path, mode: 0) == engineFrames)
            #expect(try Bench.baselineDecode(path: path, mode: 1) == engineFrames)
            #expect(try Bench.streamThroughEngine(path: path) >= engineFrames)
            #expect(try Bench.decodeFully(path: path) == engineFrames)
        }

        @Test func interruptionMeetsItsFrameGoals() throws {
            let figures = try bench.interruptionFigures()
            #expect(figures.framesAfterBegin == 0)
            #expect(figures.framesToAudible <= 480)
            #expect(figures.positionErrorFrames <= 48)
            #expect(figures.reportedPositionErrorFrames <= 48)
        }

        @Test func rebuildIsAudibleWithinOneUpdate() throws {
            let rebuilt = try bench.rebuildOnce()
            #expect(rebuilt.framesToAudible <= 480)
            #expect(rebuilt.realVoiceCount == BenchSizes.quick.rebuildVoiceCount)
        }

        /// Whether the bench executable's malloc counter is live: not under a sanitizer, whose
        /// runtime owns the allocator (`make sanitize`).
        static let benchCountsAllocations: Bool = {
            guard let executable = try? ProductProcess.executable("InterludeBench"),
                  let output = try? BenchChild.output(of: executable, arguments: ["--malloc-counter-active"], name: "InterludeBench")
            else { return false }
            return output.trimmingCharacters(in: .whitespacesAndNewlines) == "1"
        }()

        /// Scenario 1's instruction rows at `make test`'s size (a 1 s scene): callgrind runs each
        /// side in its own child, and the engine, which makes the C side's AL calls and more,
        /// counts more instructions than C for the same scene. Not under a sanitizer, whose
        /// runtime valgrind cannot run.
        @Test(.enabled(if: benchCountsAllocations, "valgrind cannot run the bench built with a sanitizer"))
        func referenceSceneInstructionsAreCountedPerSide() throws {
            let valgrind = try #require(ReferenceInstructions.valgrind(), "valgrind is not installed; `make deps` installs it")
            let rows = try ReferenceInstructions.rows(bench: try Self.benchExecutable(), valgrind: valgrind, quick: true,
                                                      emitterCount: BenchSizes.quick.referenceEmitterCount,
                                                      sceneSeconds: BenchSizes.quick.sceneSeconds)
            #expect(rows.map(\.key) == ["reference/instructions", "reference/instructions-batch"])
            for row in rows {
                let engine = try #require(row.engine), c = try #require(row.baseline), ratio = try #require(row.ratio)
                #expect(c > 0.01 && engine > c, "\(row.measure): engine \(engine) G, C \(c) G")
                #expect(abs(ratio - engine / c) < 1e-9)
                #expect(row.isGoalMet == (ratio <= 1.02))
            }
        }

        /// Scenario 7's stream rows in the bench executable, whose malloc counter is live: the
        /// soundtrack's heap holds at least its queued PCM (4 x 200 ms of 48 kHz stereo, kept by
        /// OpenAL Soft as 16-bit at the least), and each streamed voice adds heap of its own.
        @Test(.enabled(if: benchCountsAllocations, "the bench's malloc counter stands aside under a sanitizer"))
        func theStreamMemoryChildCountsTheHeapAStreamAdds() throws {
            // A child that fails throws, naming its exit status and output.
            let output = try BenchChild.output(of: try ProductProcess.executable("InterludeBench"),
                                               arguments: ["--stream-memory-child", "1", "0.5"], name: "the stream memory child")
            let figures = try #require(StreamMemory.Figures(line: output.trimmingCharacters(in: .whitespacesAndNewlines)),
                                       "unreadable: \(output)")
            #expect(figures.soundtrackBytes >= 4 * 9_600 * 2 * 2, "\(figures)")
            #expect(figures.streamedVoiceCount == SoundEngine.Configuration().maximumStreamedVoiceCount)
            #expect(figures.bytesPerStreamedVoice > 0, "\(figures)")
            let rows = StreamMemory.rows(figures)
            #expect(rows.map(\.key) == ["memory/stream/soundtrack", "memory/stream/voice"])
            #expect(rows[1].engine == figures.bytesPerStreamedVoice / 1_024)
        }

        /// Scenario 11's idle row: an engine open in a child, its threads read from /proc. Checks
        /// what is read (the threads, the sums), never how much the engine costs.
        @Test func theIdleEngineIsReadThreadByThread() throws {
            let figures = try IdleEngine.measure(executable: try ProductProcess.executable("InterludeBench"), seconds: 0.5,
                                                 settle: 0.1)
            // The main thread waiting on its input, and at least OpenAL Soft's mixer.
            #expect(figures.threads.count >= 2, "\(figures.threads)")
            #expect(figures.threads.filter { $0.name == "main thread" }.count == 1, "\(figures.threads)")
            #expect(Set(figures.threads.map(\.name)).count == figures.threads.count, "every thread its own row: \(figures.threads)")
            #expect(abs(figures.wakeupsPerSecond - figures.threads.map(\.wakeupsPerSecond).reduce(0, +)) < 1e-9)
            #expect(figures.cpuPercent >= 0 && figures.wakeupsPerSecond >= 0)
            let rows = IdleEngine.rows(figures)
            #expect(rows.count == 3 + 2 * figures.threads.count)
            #expect(rows.first?.key == "idle/cpu" && rows[1].key == "idle/wakeups")
            #expect(rows[2].engine == Double(figures.threads.count))
        }

        @Test func updateSceneHoldsItsVoicesOnTheBudget() throws {
            let engine = try bench.updateScene(voiceCount: 500)
            defer { engine.shutdown() }
            #expect(engine.statistics.voiceCount == 500)
            #expect(engine.statistics.realVoiceCount == 64)
        }
    }
}
