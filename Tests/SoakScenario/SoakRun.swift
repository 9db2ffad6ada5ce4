import Foundation
@_spi(Tools) import Interlude
import InterludeScene

/// A busy scene rendered offline as fast as the machine allows, with interruptions and device
/// losses on a seeded schedule, checked as it goes. Shared by `make soak` (the Soak executable,
/// two hours of game time) and the short soak test in `make test` (ten minutes).
///
/// The run knows exactly when output must play and when it must be silent, so it counts the
/// soundtrack's frames itself and checks every 10 ms window of the render against that.
public struct SoakRun {
    /// What the run is told to do.
    public struct Settings: Sendable {
        public var gameSeconds: Double
        public var emitterCount = 200
        public var seed: UInt64 = 0x1D7E_2024
        /// Seconds between random interruptions: uniform in this range.
        public var interruptionGapSeconds: ClosedRange<Double> = 10...120
        /// How long each interruption lasts.
        public var interruptionLengthSeconds: ClosedRange<Double> = 0.5...8
        /// A device loss starts every this many seconds of game time...
        public var deviceLossPeriodSeconds: Double = 600
        /// ...and lasts this long before reconnectDevice().
        public var deviceLossLengthSeconds: Double = 3
        /// Folder for the generated soundtrack.
        public var folder: String = NSTemporaryDirectory()

        public init(gameSeconds: Double) {
            self.gameSeconds = gameSeconds
        }
    }

    /// What the run measured.
    public struct Report: Sendable, CustomStringConvertible {
        public var gameSeconds = 0.0
        public var wallSeconds = 0.0
        public var interruptionCount = 0
        public var deviceLossCount = 0
        /// Frames the soundtrack was audible, counted by the run.
        public var musicFramesPlayed = 0
        /// After each resume: the run's count (mod track length) and the engine's position.
        public var positionChecks: [(expected: Int, engine: Int?)] = []
        /// After the last resume.
        public var lastPositionCheck: (expected: Int, engine: Int?)?
        /// 10 ms windows that were silent while output should play.
        public var silentWindowsWhileActive = 0
        /// 10 ms windows with any non-zero sample while interrupted or lost.
        public var soundingWindowsWhileStopped = 0
        /// Resident memory in bytes after the first 10 minutes of game time and at the end.
        public var residentBytesAfterTenMinutes: Int?
        public var residentBytesAtEnd = 0
        public var statisticsAtEnd: EngineStatistics?
        public var failures: [String] = []

        public var positionMismatchCount: Int { positionChecks.filter { $0.expected != $0.engine }.count }
        /// End RSS relative to the 10-minute RSS (1.0 = equal).
        public var residentRatio: Double? {
            residentBytesAfterTenMinutes.map { Double(residentBytesAtEnd) / Double($0) }
        }

        public var description: String {
            var lines = [
                String(format: "soak: %.0f s of game time in %.1f s of wall time (%.1fx realtime)", gameSeconds, wallSeconds, gameSeconds / max(wallSeconds, 1e-9)),
                "  interruptions \(interruptionCount), device losses \(deviceLossCount), music frames played \(musicFramesPlayed)",
                "  position checks \(positionChecks.count), mismatches \(positionMismatchCount), last: expected \(lastPositionCheck.map { "\($0.expected)" } ?? "-") engine \(lastPositionCheck.map { "\($0.engine.map(String.init) ?? "nil")" } ?? "-")",
                "  silent windows while active \(silentWindowsWhileActive), sounding windows while stopped \(soundingWindowsWhileStopped)",
                "  RSS after 10 min \(residentBytesAfterTenMinutes.map { "\($0 / 1024) KiB" } ?? "-"), at end \(residentBytesAtEnd / 1024) KiB" + (residentRatio.map { String(format: " (ratio %.4f)", $0) } ?? ""),
                "  statistics at end: \(statisticsAtEnd.map { "\($0)" } ?? "-")",
            ]
            lines += failures.map { "  FAIL: \($0)" }
            return lines.joined(separator: "\n")
        }
    }

    public let settings: Settings
    public init(settings: Settings) { self.settings = settings }

    static let sampleRate = 48_000
    static let channelCount = 2
    /// Frames per check window and per render call: one update interval.
    static let windowFrames = 480
    /// Soundtrack length: deliberately not a multiple of the window or of the stream buffers.
    static let trackFrameCount = 48_000 * 7 + 1_234

    /// Runs the scene; `progress` is called every game minute.
    public func run(progress: (Report) -> Void = { _ in }) throws -> Report {
        var report = Report()
        var random = SplitMix64(seed: settings.seed)
        var configuration = SoundEngine.Configuration(output: .offline(sampleRate: Self.sampleRate, channelCount: Self.channelCount))
        configuration.monoSourceCount = max(255, settings.emitterCount + 16)
        configuration.runsDriverThread = false
        let engine = try SoundEngine(configuration: configuration)
        defer { engine.shutdown() }

        // The soundtrack: a 48 kHz stereo WAV (no resampling: a rendered frame is a track frame).
        let trackPath = (settings.folder as NSString).appendingPathComponent("interlude-soak-\(getpid())-track.wav")
        defer { unlink(trackPath) }
        var track = [Float](repeating: 0, count: Self.trackFrameCount * 2)
        for frame in 0..<Self.trackFrameCount {
            let phase = Float(frame) * 2 * .pi / Float(Self.sampleRate)
            track[2 * frame] = 0.2 * sinf(phase * 220)
            track[2 * frame + 1] = 0.2 * sinf(phase * 330)
        }
        try WAVFileWriter.write(samples: track, format: AudioFormat(sampleRate: Self.sampleRate, channelCount: 2), sampleType: .float32, to: trackPath)

        // Emitter sounds: short mono loops at different pitches.
        var sounds: [Sound] = []
        for index in 0..<8 {
            let frequency = Float(300 + 70 * index)
            let frames = 4_800 + 480 * index
            let samples = (0..<frames).map { 0.5 * sinf(Float($0) * 2 * .pi * frequency / Float(Self.sampleRate)) }
            sounds.append(try engine.makeSound(name: "emitter\(index)", format: AudioFormat(sampleRate: Self.sampleRate, channelCount: 1), samples: samples))
        }
        var emitters: [VoiceHandle] = []
        for index in 0..<settings.emitterCount {
            let position = Vector3(random.float(in: -20...20), random.float(in: -2...2), random.float(in: -20...20))
            let parameters = VoiceParameters(position: position, gain: 0.05, pitch: random.float(in: 0.8...1.25), isLooping: true)
            emitters.append(try engine.play(sounds[index % sounds.count], parameters: parameters))
        }
        try engine.playMusic(path: trackPath, isLooping: true, gain: 0.8)

        let totalFrames = Int(settings.gameSeconds * Double(Self.sampleRate))
        let tenMinutesFrames = 600 * Self.sampleRate
        let lossLengthFrames = Int(settings.deviceLossLengthSeconds * Double(Self.sampleRate))
        var nextInterruptionFrame = frames(random.double(in: settings.interruptionGapSeconds))
        var interruptionEndFrame: Int?
        var nextLossFrame = frames(settings.deviceLossPeriodSeconds)
        var lossEndFrame: Int?
        var frame = 0
        var nextProgressFrame = 60 * Self.sampleRate
        let start = ContinuousClock.now

        func checkPosition() {
            let engineValue = engine.music().flatMap { engine.positionInFrames(of: $0) }
            let expected = report.musicFramesPlayed % Self.trackFrameCount
            report.positionChecks.append((expected, engineValue))
            report.lastPositionCheck = (expected, engineValue)
        }

        while frame < totalFrames {
            // Session changes happen exactly on window boundaries, so each window is all one state.
            if let end = lossEndFrame, frame >= end {
                try engine.reconnectDevice()
                lossEndFrame = nil
                report.deviceLossCount += 1
                checkPosition()
            }
            if let end = interruptionEndFrame, frame >= end {
                try engine.endInterruption(shouldResume: true)
                interruptionEndFrame = nil
                report.interruptionCount += 1
                checkPosition()
            }
            // A loss never overlaps an interruption: it waits for the interruption to end, and
            // an interruption due during a loss waits for the restore.
            if lossEndFrame == nil, interruptionEndFrame == nil, frame >= nextLossFrame {
                engine.disconnectDevice()
                lossEndFrame = frame + lossLengthFrames
                nextLossFrame += frames(settings.deviceLossPeriodSeconds)
            } else if lossEndFrame == nil, interruptionEndFrame == nil, frame >= nextInterruptionFrame {
                let reasons: [InterruptionReason] = [.call, .focusLost, .other]
                try engine.beginInterruption(reason: reasons[Int(random.next() % 3)])
                interruptionEndFrame = frame + frames(random.double(in: settings.interruptionLengthSeconds))
                nextInterruptionFrame = interruptionEndFrame! + frames(random.double(in: settings.interruptionGapSeconds))
            } else if frame % (Self.sampleRate / 2) == 0 && lossEndFrame == nil && interruptionEndFrame == nil {
                // Keep the scene moving: one emitter jumps every half second.
                let handle = emitters[Int(random.next() % UInt64(emitters.count))]
                try engine.setPosition(Vector3(random.float(in: -20...20), 0, random.float(in: -20...20)), of: handle)
            }
            let isStopped = lossEndFrame != nil || interruptionEndFrame != nil
            let samples = try engine.render(frameCount: Self.windowFrames)
            var peak: Float = 0
            for sample in samples { peak = max(peak, abs(sample)) }
            if isStopped {
                if peak != 0 { report.soundingWindowsWhileStopped += 1 }
            } else {
                if peak < 1e-4 { report.silentWindowsWhileActive += 1 }
                report.musicFramesPlayed += Self.windowFrames
            }
            frame += Self.windowFrames
            if frame == tenMinutesFrames { report.residentBytesAfterTenMinutes = Self.residentBytes() }
            if frame >= nextProgressFrame {
                nextProgressFrame += 60 * Self.sampleRate
                report.gameSeconds = Double(frame) / Double(Self.sampleRate)
                report.wallSeconds = (ContinuousClock.now - start).seconds
                progress(report)
            }
        }
        // End whatever is in progress, so the run finishes active and the last resume is checked.
        if lossEndFrame != nil {
            try engine.reconnectDevice()
            report.deviceLossCount += 1
            checkPosition()
        }
        if interruptionEndFrame != nil {
            try engine.endInterruption(shouldResume: true)
            report.interruptionCount += 1
            checkPosition()
        }
        report.gameSeconds = Double(frame) / Double(Self.sampleRate)
        report.wallSeconds = (ContinuousClock.now - start).seconds
        report.residentBytesAtEnd = Self.residentBytes()
        report.statisticsAtEnd = engine.statistics

        if report.positionChecks.isEmpty { report.failures.append("no interruption or loss happened: nothing was checked") }
        if let last = report.lastPositionCheck, last.engine != last.expected {
            report.failures.append("soundtrack position after the last resume: engine \(last.engine.map(String.init) ?? "nil"), played \(last.expected)")
        }
        if report.silentWindowsWhileActive > 0 { report.failures.append("\(report.silentWindowsWhileActive) silent windows outside interruptions") }
        if report.soundingWindowsWhileStopped > 0 { report.failures.append("\(report.soundingWindowsWhileStopped) sounding windows inside interruptions") }
        if let ratio = report.residentRatio, abs(ratio - 1) > 0.05 {
            report.failures.append(String(format: "resident memory at the end is %.2f%% of that after 10 minutes", ratio * 100))
        }
        if let statistics = report.statisticsAtEnd {
            if statistics.internalErrorCount != 0 { report.failures.append("internalErrorCount \(statistics.internalErrorCount)") }
            if statistics.voiceCount != settings.emitterCount { report.failures.append("voiceCount \(statistics.voiceCount), expected \(settings.emitterCount)") }
        }
        return report
    }

    private func frames(_ seconds: Double) -> Int {
        // Whole windows, so every state change falls on a window boundary.
        max(1, Int(seconds * Double(Self.sampleRate)) / Self.windowFrames) * Self.windowFrames
    }

    /// Resident set size from /proc/self/statm.
    public static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}

extension Duration {
    fileprivate var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }
}

/// A small seeded generator (SplitMix64): the same seed gives the same run.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func double(in range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &self) }
    mutating func float(in range: ClosedRange<Float>) -> Float { Float.random(in: range, using: &self) }
}
