import BenchBaseline
import Foundation
@_spi(Tools) import Interlude

/// Counts heap allocations between `start` and `stop`, and the heap bytes they added (the bench
/// executable wires its malloc interposer in; without one, allocations are not reported).
public struct AllocationCounter: Sendable {
    public var start: @Sendable () -> Void
    public var stop: @Sendable () -> UInt64
    /// Usable bytes allocated less those freed since `start`, read while counting or after `stop`.
    public var netBytes: @Sendable () -> Int64

    public init(start: @escaping @Sendable () -> Void, stop: @escaping @Sendable () -> UInt64,
                netBytes: @escaping @Sendable () -> Int64) {
        self.start = start
        self.stop = stop
        self.netBytes = netBytes
    }
}

/// Every scenario of the bench, at the given sizes.
public final class Bench {
    public let sizes: BenchSizes
    public let allocationCounter: AllocationCounter?
    let progress: (String) -> Void
    public let runner: SceneRunner
    /// A track as long as the longest scene plus a margin, so the scenes loop the same way on both sides.
    let sceneTrackPath: String

    public init(sizes: BenchSizes, allocationCounter: AllocationCounter? = nil, progress: @escaping (String) -> Void = { _ in }) throws {
        self.sizes = sizes
        self.allocationCounter = allocationCounter
        self.progress = progress
        runner = SceneRunner(sounds: BenchAssets.sounds(count: 8))
        sceneTrackPath = try BenchAssets.track(seconds: min(sizes.longTrackSeconds, max(2, sizes.sceneSeconds / 2)))
    }

    /// The soundtrack the scenes stream.
    public var sceneTrack: String { sceneTrackPath }

    public var longTrackPath: String {
        get throws { try BenchAssets.track(seconds: sizes.longTrackSeconds) }
    }

    // MARK: 1 and 2: scenes

    /// The reference scene's renders on both sides, for checking they match.
    public func referenceRenders(seconds: Double) throws -> (engine: [Float], baseline: [Float]) {
        let spec = SceneSpec(emitterCount: sizes.referenceEmitterCount, seconds: seconds, musicPath: sceneTrackPath)
        return (try runner.renderEngine(spec, keep: true).samples, try runner.renderBaseline(spec, keep: true))
    }

    func compareScene(_ spec: SceneSpec) throws -> (engine: [Double], baseline: [Double]) {
        try Measure.alternate(
            rounds: sizes.rounds,
            engine: { try Measure.cpuSeconds { try runner.renderEngine(spec) } },
            baseline: { try Measure.cpuSeconds { try runner.renderBaseline(spec) } })
    }

    public func referenceScene() throws -> [BenchRow] {
        progress("1. reference scene")
        let spec = SceneSpec(emitterCount: sizes.referenceEmitterCount, seconds: sizes.sceneSeconds, musicPath: sceneTrackPath)
        let (engine, baseline) = try compareScene(spec)
        let ratio = Measure.median(engine) / Measure.median(baseline)
        let renders = try referenceRenders(seconds: min(10, sizes.sceneSeconds))
        let relativeDifference = rootMeanSquareDifference(renders.engine, renders.baseline) / rootMeanSquare(renders.baseline)
        return [BenchRow(scenario: "1. Reference scene", measure: "engine vs C render, first \(Int(min(10, sizes.sceneSeconds))) s: RMS difference / RMS signal",
                         unit: "", engine: relativeDifference, goal: "< 0.01 (asserted in make test)", isGoalMet: relativeDifference < 0.01),
                BenchRow(scenario: "1. Reference scene", measure: "\(spec.emitterCount) voices + soundtrack, \(Int(spec.seconds)) s offline: CPU time",
                         unit: "s", engine: Measure.median(engine), baseline: Measure.median(baseline), ratio: ratio,
                         ratioMeaning: "engine / C", goal: "<= 1.02", isGoalMet: ratio <= 1.02,
                         engineSamples: engine, baselineSamples: baseline, key: "reference/cpu")] + (try batchedReferenceScene())
    }

    /// The reference scene with the engine moving its voices through setPositions.
    func batchedReferenceScene() throws -> [BenchRow] {
        var spec = SceneSpec(emitterCount: sizes.referenceEmitterCount, seconds: sizes.sceneSeconds, musicPath: sceneTrackPath)
        spec.movesInBatches = true
        let (engine, baseline) = try compareScene(spec)
        let ratio = Measure.median(engine) / Measure.median(baseline)
        return [BenchRow(scenario: "1. Reference scene", measure: "same, engine moving voices with one setPositions per update: CPU time",
                         unit: "s", engine: Measure.median(engine), baseline: Measure.median(baseline), ratio: ratio,
                         ratioMeaning: "engine / C", goal: "<= 1.02", isGoalMet: ratio <= 1.02,
                         engineSamples: engine, baselineSamples: baseline, key: "reference/cpu-batch")]
    }

    /// Up to OpenAL's 255 sources, both sides play every emitter on a real source. Past them, the
    /// engine keeps its emitters on a 64-source budget and the C baseline has no voice management
    /// to compare with, so only the engine's cost is reported there.
    public func scaling() throws -> [BenchRow] {
        var rows: [BenchRow] = []
        var previous: (count: Int, engine: Double, baseline: Double)?
        for count in sizes.scalingEmitterCounts {
            progress("2. scaling: \(count) emitters")
            var spec = SceneSpec(emitterCount: count, seconds: sizes.sceneSeconds, musicPath: sceneTrackPath)
            if count > 255 {
                spec.engineRealVoiceBudget = 64
                let engine = try (0..<sizes.rounds).map { _ in try Measure.cpuSeconds { try runner.renderEngine(spec) } }
                rows.append(BenchRow(scenario: "2. Scaling",
                                     measure: "\(count) emitters, engine alone (64 real + \(count - 64) virtual; C has no voice budget to compare): CPU time",
                                     unit: "s", engine: Measure.median(engine), engineSamples: engine, key: "scaling/\(count)"))
                continue
            }
            let (engine, baseline) = try compareScene(spec)
            let engineMedian = Measure.median(engine)
            let baselineMedian = Measure.median(baseline)
            var growth = ""
            if let previous {
                growth = String(format: "; x%.2f engine, x%.2f C for x%.2f emitters", engineMedian / previous.engine,
                                baselineMedian / previous.baseline, Double(count) / Double(previous.count))
            }
            // At 255 every emitter is real on both sides: the engine's own cost at OpenAL's limit.
            let goalApplies = count == 255
            rows.append(BenchRow(scenario: "2. Scaling", measure: "\(count) emitters: CPU time\(growth)", unit: "s",
                                 engine: engineMedian, baseline: baselineMedian, ratio: engineMedian / baselineMedian,
                                 ratioMeaning: "engine / C", goal: goalApplies ? "<= 1.02" : nil,
                                 isGoalMet: goalApplies ? engineMedian / baselineMedian <= 1.02 : nil,
                                 engineSamples: engine, baselineSamples: baseline, key: "scaling/\(count)"))
            previous = (count, engineMedian, baselineMedian)
        }
        return rows
    }

    // MARK: 3: decoding

    /// Frames the engine's streaming decoder gives for `path`, read 200 ms at a time.
    public static func engineDecode(path: String) throws -> Int {
        let decoder = try DecoderFactory.open(path: path)
        var buffer = [Float](repeating: 0, count: 9_600 * decoder.format.channelCount)
        var total = 0
        while case let frames = try buffer.withUnsafeMutableBufferPointer({ try decoder.read(into: $0) }), frames > 0 {
            total += frames
        }
        return total
    }

    /// Frames the C ov_read_float loop (mode 0) or ov_read int16 loop (mode 1) gives.
    public static func baselineDecode(path: String, mode: Int32) throws -> Int {
        let frames = bb_decode_vorbis(path, 9_600, mode)
        guard frames >= 0 else { throw InterludeError(.corruptData, "bb_decode_vorbis(\(path)) failed with \(frames)") }
        return Int(frames)
    }

    public func vorbisDecode() throws -> [BenchRow] {
        progress("3. vorbis decode")
        let path = try longTrackPath
        let seconds = sizes.longTrackSeconds
        var int16Samples: [Double] = []
        let (engine, baseline) = try Measure.alternate(
            rounds: sizes.rounds,
            engine: { try Measure.cpuSeconds { _ = try Self.engineDecode(path: path) } },
            baseline: {
                int16Samples.append(try Measure.cpuSeconds { _ = try Self.baselineDecode(path: path, mode: 1) })
                return try Measure.cpuSeconds { _ = try Self.baselineDecode(path: path, mode: 0) }
            })
        // Throughput in seconds of audio per CPU second; the ratio is engine / C throughput.
        let engineThroughput = seconds / Measure.median(engine)
        let baselineThroughput = seconds / Measure.median(baseline)
        let int16Throughput = seconds / Measure.median(int16Samples)
        let ratio = engineThroughput / baselineThroughput
        return [
            BenchRow(scenario: "3. Vorbis decode", measure: "\(Int(seconds)) s stereo track, float out (C: ov_read_float loop): throughput",
                     unit: "x realtime", engine: engineThroughput, baseline: baselineThroughput, ratio: ratio,
                     minRatio: baseline.min()! / engine.min()!, ratioMeaning: "engine / C", goal: ">= 0.95", isGoalMet: ratio >= 0.95,
                     engineSamples: engine, baselineSamples: baseline),
            BenchRow(scenario: "3. Vorbis decode", measure: "same, C ov_read int16 loop", unit: "x realtime",
                     engine: engineThroughput, baseline: int16Throughput, ratio: engineThroughput / int16Throughput,
                     minRatio: int16Samples.min()! / engine.min()!, ratioMeaning: "engine / C", engineSamples: engine,
                     baselineSamples: int16Samples),
        ]
    }

    // MARK: 4: update cost

    /// An offline engine with `voiceCount` looping positional voices on a 64-source budget and
    /// the soundtrack, after a few warm-up updates.
    public func updateScene(voiceCount: Int) throws -> SoundEngine {
        let engine = try SceneRunner.offlineEngine {
            $0.realVoiceBudget = 64
            $0.runsDriverThread = false
        }
        let format = AudioFormat(sampleRate: BenchAssets.soundSampleRate, channelCount: 1)
        let sounds = try runner.sounds.enumerated().map { try engine.makeSound(name: "sound\($0.offset)", format: format, samples: $0.element) }
        try engine.playMusic(path: sceneTrackPath)
        // Started with the group paused so each play does not search the pool for its weakest
        // voice (quadratic at 100k); resuming the group assigns sources once.
        try engine.pause(.sfx)
        for index in 0..<voiceCount {
            let parameters = VoiceParameters(position: SceneRunner.emitterPosition(index, frame: 0), gain: bb_emitter_gain(Int32(index % 1_000)), isLooping: true)
            try engine.play(sounds[index % sounds.count], parameters: parameters)
        }
        try engine.resume(.sfx)
        _ = try engine.render(frameCount: BenchAssets.updateFrames * 4)
        for _ in 0..<20 { engine.update() }
        return engine
    }

    public func updateCost() throws -> [BenchRow] {
        var rows: [BenchRow] = []
        for voiceCount in sizes.updateVoiceCounts {
            progress("4. update cost: \(voiceCount) voices")
            let engine = try updateScene(voiceCount: voiceCount)
            defer { engine.shutdown() }
            let calls = max(20, min(20_000, sizes.updateCallBudget / voiceCount))
            var perCall: [Double] = []
            for _ in 0..<sizes.rounds {
                let seconds = Measure.cpuSeconds { for _ in 0..<calls { engine.update() } }
                perCall.append(seconds / Double(calls))
            }
            // The same with the listener walking every update: nothing in the pool's scores is
            // cached, so this costs what the still scene costs, plus the listener call.
            var perMovingCall: [Double] = []
            var step = 0
            for _ in 0..<sizes.rounds {
                let seconds = try Measure.cpuSeconds {
                    for _ in 0..<calls {
                        step += 1
                        try engine.changeListener { $0.position = Vector3(Float(step % 200) * 0.05, 0, 0) }
                        engine.update()
                    }
                }
                perMovingCall.append(seconds / Double(calls))
            }
            var allocationsPerCall: Double?
            if let counter = allocationCounter {
                counter.start()
                for _ in 0..<calls { engine.update() }
                allocationsPerCall = Double(counter.stop()) / Double(calls)
            }
            // With audio rendering too, so stream refills are in the count: render(frameCount:)
            // returns a new array (1 allocation) and runs one update per 480 frames.
            var allocationsPerRender: Double?
            if let counter = allocationCounter {
                let renders = 200
                counter.start()
                for _ in 0..<renders { _ = try engine.render(frameCount: BenchAssets.updateFrames) }
                allocationsPerRender = Double(counter.stop()) / Double(renders)
            }
            let milliseconds = Measure.median(perCall) * 1_000
            let goalApplies = voiceCount == 10_000
            rows.append(BenchRow(scenario: "4. Update cost", measure: "\(voiceCount) logical voices (64 real): time per update()",
                                 unit: "ms", engine: milliseconds, goal: goalApplies ? "<= 0.2 ms at 10k" : nil,
                                 isGoalMet: goalApplies ? milliseconds <= 0.2 : nil, engineSamples: perCall.map { $0 * 1_000 }))
            let movingMilliseconds = Measure.median(perMovingCall) * 1_000
            rows.append(BenchRow(scenario: "4. Update cost", measure: "\(voiceCount) logical voices, listener moved before each update(): time per call pair",
                                 unit: "ms", engine: movingMilliseconds, goal: goalApplies ? "<= 0.2 ms at 10k" : nil,
                                 isGoalMet: goalApplies ? movingMilliseconds <= 0.2 : nil, engineSamples: perMovingCall.map { $0 * 1_000 }))
            rows.append(BenchRow(scenario: "4. Update cost", measure: "\(voiceCount) logical voices: update() calls per second",
                                 unit: "/s", engine: 1_000 / milliseconds))
            if let allocationsPerCall {
                rows.append(BenchRow(scenario: "4. Update cost", measure: "\(voiceCount) logical voices: heap allocations per update(), steady state",
                                     unit: "", engine: allocationsPerCall, goal: "0", isGoalMet: allocationsPerCall == 0))
            }
            if let allocationsPerRender {
                rows.append(BenchRow(scenario: "4. Update cost", measure: "\(voiceCount) logical voices: heap allocations per render(frameCount: 480) incl. its update and stream refills (1 = the returned array)",
                                     unit: "", engine: allocationsPerRender))
            }
        }
        return rows
    }

    // MARK: 5: interruption

    /// Frame counts of one interruption of the soundtrack (with emitters playing).
    public struct InterruptionFigures: Sendable {
        /// Non-silent frames rendered after beginInterruption returned.
        public var framesAfterBegin: Int
        /// Frames rendered after endInterruption before the soundtrack is audible.
        public var framesToAudible: Int
        /// How far the resumed soundtrack is from where it stopped, found by matching the
        /// rendered content against an uninterrupted render.
        public var positionErrorFrames: Int
        /// The same, from musicPositionInFrames before the begin and after the end.
        public var reportedPositionErrorFrames: Int
    }

    public func interruptionFigures() throws -> InterruptionFigures {
        let before = 48_000 + 1_234
        let during = 24_000
        let after = 4_800
        let search = 4_800
        // The soundtrack alone, uninterrupted: what the resumed render must continue.
        let reference = try SceneRunner.offlineEngine()
        try reference.playMusic(path: sceneTrackPath)
        let referenceSamples = try reference.render(frameCount: before + after + search)
        reference.shutdown()

        let engine = try SceneRunner.offlineEngine()
        defer { engine.shutdown() }
        try engine.playMusic(path: sceneTrackPath)
        _ = try engine.render(frameCount: before)
        let positionAtBegin = engine.music().flatMap { engine.positionInFrames(of: $0) } ?? -1
        try engine.beginInterruption(reason: .other)
        let silent = try engine.render(frameCount: during)
        var framesAfterBegin = 0
        for frame in 0..<during where silent[2 * frame] != 0 || silent[2 * frame + 1] != 0 { framesAfterBegin += 1 }
        try engine.endInterruption(shouldResume: true)
        let positionAtEnd = engine.music().flatMap { engine.positionInFrames(of: $0) } ?? -1
        let resumed = try engine.render(frameCount: after)
        let framesToAudible = (0..<after).first { abs(resumed[2 * $0]) > 1e-4 || abs(resumed[2 * $0 + 1]) > 1e-4 } ?? after
        // The offset into the reference where the resumed render fits best.
        let compared = 2_400
        var bestOffset = 0
        var bestError = Double.infinity
        for offset in (before - search)...(before + search) where offset >= 0 && offset + after <= referenceSamples.count / 2 {
            var error = 0.0
            for index in 0..<(2 * compared) {
                let difference = Double(resumed[index]) - Double(referenceSamples[2 * offset + index])
                error += difference * difference
                if error >= bestError { break }
            }
            if error < bestError {
                bestError = error
                bestOffset = offset
            }
        }
        return InterruptionFigures(framesAfterBegin: framesAfterBegin, framesToAudible: framesToAudible,
                                   positionErrorFrames: abs(bestOffset - before),
                                   reportedPositionErrorFrames: abs(positionAtEnd - positionAtBegin))
    }

    public func interruption() throws -> [BenchRow] {
        progress("5. interruption latency")
        let figures = try interruptionFigures()
        let update = Double(BenchAssets.updateFrames)
        return [
            BenchRow(scenario: "5. Interruption", measure: "non-silent frames rendered after beginInterruption returns", unit: "frames",
                     engine: Double(figures.framesAfterBegin), goal: "0", isGoalMet: figures.framesAfterBegin == 0),
            BenchRow(scenario: "5. Interruption", measure: "frames from endInterruption to the soundtrack audible", unit: "frames",
                     engine: Double(figures.framesToAudible), goal: "<= 480 (one 10 ms update)", isGoalMet: Double(figures.framesToAudible) <= update),
            BenchRow(scenario: "5. Interruption", measure: "soundtrack position error at resume (rendered content matched)", unit: "frames",
                     engine: Double(figures.positionErrorFrames), goal: "<= 48", isGoalMet: figures.positionErrorFrames <= 48),
            BenchRow(scenario: "5. Interruption", measure: "soundtrack position error at resume (musicPositionInFrames)", unit: "frames",
                     engine: Double(figures.reportedPositionErrorFrames), goal: "<= 48", isGoalMet: figures.reportedPositionErrorFrames <= 48),
        ]
    }

    // MARK: 6: rebuild

    /// Milliseconds from reconnectDevice() to the first audible rendered frame, and the frames
    /// rendered until then.
    public func rebuildOnce() throws -> (milliseconds: Double, framesToAudible: Int, realVoiceCount: Int) {
        let engine = try SceneRunner.offlineEngine()
        defer { engine.shutdown() }
        let format = AudioFormat(sampleRate: BenchAssets.soundSampleRate, channelCount: 1)
        let base = runner.sounds.map { Array($0.prefix(BenchAssets.soundSampleRate / 4)) }
        let sounds = try (0..<sizes.rebuildSoundCount).map { index in
            try engine.makeSound(name: "sound\(index)", format: format, samples: base[index % base.count])
        }
        try engine.playMusic(path: sceneTrackPath)
        for index in 0..<sizes.rebuildVoiceCount {
            try engine.play(sounds[index % sounds.count], parameters: VoiceParameters(
                position: SceneRunner.emitterPosition(index, frame: 0), gain: bb_emitter_gain(Int32(index)), isLooping: true))
        }
        _ = try engine.render(frameCount: 24_000)
        engine.disconnectDevice()
        _ = try engine.render(frameCount: 4_800)
        var frames = 0
        var audible = false
        let seconds = try Measure.wallSeconds {
            try engine.reconnectDevice()
            while !audible && frames < 48_000 {
                let chunk = try engine.render(frameCount: 48)
                if let first = chunk.firstIndex(where: { abs($0) > 1e-4 }) {
                    frames += first / 2
                    audible = true
                } else {
                    frames += 48
                }
            }
        }
        return (seconds * 1_000, frames, engine.statistics.realVoiceCount)
    }

    public func rebuild() throws -> [BenchRow] {
        progress("6. rebuild")
        var samples: [Double] = []
        var frames = 0
        var realVoices = 0
        for _ in 0..<sizes.rounds {
            let once = try rebuildOnce()
            samples.append(once.milliseconds)
            frames = once.framesToAudible
            realVoices = once.realVoiceCount
        }
        return [BenchRow(scenario: "6. Rebuild", measure: "device loss + restore, \(sizes.rebuildSoundCount) sounds, \(sizes.rebuildVoiceCount) voices (\(realVoices) real after): restore to audible (wall; audible after \(frames) rendered frames)",
                         unit: "ms", engine: Measure.median(samples), engineSamples: samples)]
    }

    // MARK: 7: memory

    /// Streams the whole track through an offline engine (4 x 200 ms buffers), rendering it.
    public static func streamThroughEngine(path: String) throws -> Int {
        let engine = try SceneRunner.offlineEngine()
        defer { engine.shutdown() }
        try engine.playMusic(path: path, isLooping: false)
        let frameCount = engine.music().flatMap { engine.duration(of: $0) }?.frameCount ?? 0
        var rendered = 0
        while rendered < frameCount {
            _ = try engine.render(frameCount: 4_800)
            rendered += 4_800
        }
        return rendered
    }

    /// Decodes the whole track into memory, as loadSound does.
    public static func decodeFully(path: String) throws -> Int {
        try DecoderFactory.decodeAll(path: path).samples.count / 2
    }

    /// Loads `path` with loadSound into an offline engine; returns this process's peak resident
    /// KiB with the sound loaded (the memory child's "load" mode). `placed`: then plays it at a
    /// position, which makes a stereo sound's mono downmix (the "loadPlaced" mode).
    public static func loadIntoEngine(path: String, placed: Bool = false) throws -> Int {
        let engine = try SceneRunner.offlineEngine()
        defer { engine.shutdown() }
        let sound = try engine.loadSound(path: path)
        if placed {
            try engine.play(sound, parameters: VoiceParameters(position: Vector3(2, 0, 0)))
            _ = try engine.render(frameCount: 480)
        }
        return withExtendedLifetime(sound) { Measure.peakResidentKiB() }
    }

    /// The bytes of `path`'s PCM at `bytesPerSample`: its frames times its channels times that.
    public static func pcmByteCount(path: String, bytesPerSample: Int) throws -> Int {
        let decoder = try DecoderFactory.open(path: path)
        return decoder.frameCount * decoder.format.channelCount * bytesPerSample
    }

    /// Builds the memory rows from the peak resident KiB of a child that only started up, one
    /// that streamed the track and one that decoded it fully.
    public func memoryRows(idleKiB: Int, streamKiB: Int, fullKiB: Int) -> [BenchRow] {
        [
            BenchRow(scenario: "7. Memory", measure: "peak RSS, streaming the \(Int(sizes.longTrackSeconds)) s track (idle process: \(idleKiB / 1024) MiB)",
                     unit: "MiB", engine: Double(streamKiB) / 1024),
            BenchRow(scenario: "7. Memory", measure: "peak RSS, full decode of the same track", unit: "MiB", engine: Double(fullKiB) / 1024),
            BenchRow(scenario: "7. Memory", measure: "peak RSS above idle: streaming", unit: "MiB", engine: Double(streamKiB - idleKiB) / 1024),
            BenchRow(scenario: "7. Memory", measure: "peak RSS above idle: full decode", unit: "MiB", engine: Double(fullKiB - idleKiB) / 1024),
        ]
    }

    /// The row of one loaded sound: the peak resident memory its load adds to a process that
    /// only opened an engine, over its PCM (`pcmBytes`, at the sample format `pcmFormat` names).
    public func loadedSoundRow(source: String, pcmFormat: String, idleKiB: Int, loadedKiB: Int, pcmBytes: Int) -> BenchRow {
        let ratio = Double(loadedKiB - idleKiB) * 1024 / Double(pcmBytes)
        let pcmMiB = Double(pcmBytes) / 1_048_576
        return BenchRow(scenario: "7. Memory",
                        measure: "peak RSS above idle, loadSound of the \(Int(sizes.longTrackSeconds)) s \(source), over its PCM at \(pcmFormat) (\(String(format: "%.0f", pcmMiB)) MiB; loaded: \((loadedKiB - idleKiB) / 1024) MiB)",
                        unit: "x PCM", engine: ratio, goal: "<= 1.5", isGoalMet: ratio <= 1.5)
    }

    /// The row of one loaded stereo sound then played at a position: its own buffer plus the
    /// float mono downmix positional voices play, over its PCM. Reported, with no goal: the
    /// downmix is what OpenAL needs to place a stereo sound.
    public func placedSoundRow(source: String, pcmFormat: String, idleKiB: Int, placedKiB: Int, pcmBytes: Int) -> BenchRow {
        let ratio = Double(placedKiB - idleKiB) * 1024 / Double(pcmBytes)
        return BenchRow(scenario: "7. Memory",
                        measure: "peak RSS above idle, the same \(source) loaded and played at a position (its float mono downmix added), over its PCM at \(pcmFormat)",
                        unit: "x PCM", engine: ratio)
    }

    // MARK: 8: start-up

    /// Opens an offline engine and loads `paths` with loadSound.
    public static func engineStartup(paths: [String]) throws {
        let engine = try SceneRunner.offlineEngine()
        for path in paths { _ = try engine.loadSound(path: path) }
        engine.shutdown()
    }

    public func startup() throws -> [BenchRow] {
        progress("8. start-up")
        let count = sizes.startupSoundCount
        let shortSounds = runner.sounds.map { Array($0.prefix(BenchAssets.soundSampleRate / 2)) }
        let paths = try BenchAssets.wavFiles((0..<count).map { shortSounds[$0 % shortSounds.count] + [Float($0) * 1e-4] })
        let startupRunner = SceneRunner(sounds: (0..<count).map { shortSounds[$0 % shortSounds.count] })
        let (engine, baseline) = try Measure.alternate(
            rounds: max(sizes.rounds, 5),
            engine: { try Measure.wallSeconds { try Self.engineStartup(paths: paths) } * 1_000 },
            baseline: { try Measure.wallSeconds { try startupRunner.baselineStartup(soundCount: count) } * 1_000 })
        return [BenchRow(scenario: "8. Start-up", measure: "open + \(count) sounds loaded (engine: loadSound of 0.5 s WAV files; C: the PCM uploaded), wall",
                         unit: "ms", engine: Measure.median(engine), baseline: Measure.median(baseline),
                         ratio: Measure.median(engine) / Measure.median(baseline), ratioMeaning: "engine / C",
                         engineSamples: engine, baselineSamples: baseline)]
    }
}
