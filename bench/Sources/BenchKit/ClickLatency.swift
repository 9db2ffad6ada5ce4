#if canImport(Glibc)
import Glibc
#endif
import BenchBaseline
import Foundation
@_spi(Tools) import Interlude

/// Scenario 10: how late a sound is heard. A child process plays a 20 ms click every 500-550 ms to
/// a null sink at 48 kHz of a private PulseAudio or PipeWire server (``BenchServerKind``) while a
/// recorder on the sink's monitor timestamps every frame against CLOCK_MONOTONIC; a click's latency is from the CLOCK_MONOTONIC time read
/// just before its play call to its first loud frame. Clicks start as soon as the player is
/// ready (the engine's init returned), again right after a rebuild (the device taken away and
/// reconnected) and right after a switch (to the same sink, by name), so the start-up window
/// is in the figures. Each start is a fresh child and a fresh server.
public enum ClickLatency {
    /// Who plays the clicks.
    public enum Player: String, Sendable, CaseIterable {
        /// Raw OpenAL through the C baseline, with the engine's context attributes; its rebuild
        /// closes and reopens the device.
        case raw
        /// The engine.
        case interlude
        /// The engine with ``SoundEngine/Configuration/outputStartTimeoutSeconds`` 0: ready as
        /// soon as the device opens, as before the engine waited for its output to run.
        case interludeNoWait = "interlude-no-wait"
    }

    /// The phases of a run, in the order the child plays them.
    public enum Phase: String, Sendable, CaseIterable {
        /// The first clicks after the player is ready (3 s).
        case startUp = "start-up"
        /// The next clicks: the output has long been running.
        case steady
        /// Right after a rebuild.
        case rebuild
        /// Right after a switch (the engine only).
        case `switch`
    }

    /// Clicks per phase, 500 ms apart plus a random 0 to 50 ms.
    static let clicksPerPhase = 6
    static let clickIntervalSeconds = 0.5
    /// The random part of the gap between clicks. A game's play calls come at any point of the
    /// mixer's period, and a click's latency depends on that point (up to one period: 43 ms at
    /// `.safe`). At a fixed 500 ms the six clicks of a phase fall on six fixed points of the
    /// period, the same in every start once the engine's start wait has lined its first click up
    /// with the period, so the median measured where the points fell, not the setting.
    static let clickJitterSeconds = 0.05
    static let sampleRate = 48_000
    /// A recorded frame louder than this starts a click.
    static let onsetLevel: Float = 0.1
    /// Quiet frames needed before an onset counts as a new click.
    static let quietFramesBeforeOnset = 2_400

    /// One child's latencies by phase, in milliseconds; nil for a click never heard.
    public struct Run: Sendable {
        public var latenciesByPhase: [Phase: [Double?]]
        /// Seconds from the open call to the player being ready (the engine's init).
        public var readySeconds: Double
        /// Seconds from the open call to the first click heard (lost ones skipped); nil when
        /// none was heard.
        public var firstHeardSeconds: Double? = nil
    }

    // MARK: Child

    /// The child: records the sink's monitor, plays the clicks and prints one line per phase,
    /// `PHASE ms|lost ...`, then `ready SECONDS`. Needs the environment ``run(executable:player:starts:)``
    /// gives it.
    public static func measureInChild(player: Player, latency: OutputLatency) throws -> String {
        let click = clickSamples()
        let recorder = try MonitorRecorder(scenario: "ClickLatency", sampleRate: sampleRate, maxSeconds: 60)
        var plays: [(phase: Phase, seconds: Double)] = []
        func clicks(_ phase: Phase, _ play: () throws -> Void) rethrows {
            for _ in 0..<clicksPerPhase {
                plays.append((phase, bb_monotonic_seconds()))
                try play()
                Thread.sleep(forTimeInterval: clickIntervalSeconds + Double.random(in: 0..<clickJitterSeconds))
            }
        }
        // The engine's click is a file, written before the clock starts: raw OpenAL's is in
        // memory before its open, so neither start is charged with making its sound.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("interlude-click-\(getpid()).wav")
        if player != .raw { try wavFile(click).write(to: path) }
        defer { try? FileManager.default.removeItem(at: path) }
        let openSeconds = bb_monotonic_seconds()
        var readySeconds = 0.0
        switch player {
        case .raw:
            let configuration = SoundEngine.Configuration()
            func open() throws -> OpaquePointer {
                guard let opened = click.withUnsafeBufferPointer({
                    bb_click_player_open(Int32(configuration.monoSourceCount), Int32(configuration.stereoSourceCount),
                                         $0.baseAddress, Int32($0.count), Int32(sampleRate))
                }) else { throw InterludeError(.deviceUnavailable, "ClickLatency: raw OpenAL could not open the device") }
                return opened
            }
            var raw = try open()
            readySeconds = bb_monotonic_seconds() - openSeconds
            clicks(.startUp) { bb_click_player_play(raw) }
            clicks(.steady) { bb_click_player_play(raw) }
            bb_click_player_close(raw)
            raw = try open()
            clicks(.rebuild) { bb_click_player_play(raw) }
            bb_click_player_close(raw)
        case .interlude, .interludeNoWait:
            var configuration = SoundEngine.Configuration(output: .systemDefault)
            configuration.outputLatency = latency
            if player == .interludeNoWait { configuration.outputStartTimeoutSeconds = 0 }
            let engine = try SoundEngine(configuration: configuration)
            defer { engine.shutdown() }
            readySeconds = bb_monotonic_seconds() - openSeconds
            let sound = try engine.loadSound(path: path.path)
            try clicks(.startUp) { _ = try engine.play(sound) }
            try clicks(.steady) { _ = try engine.play(sound) }
            engine.disconnectDevice()
            try engine.reconnectDevice()
            try clicks(.rebuild) { _ = try engine.play(sound) }
            guard let name = engine.statistics.deviceName else {
                throw InterludeError(.deviceUnavailable, "ClickLatency: no device to switch from")
            }
            try engine.switchDevice(to: .named(name))
            try clicks(.switch) { _ = try engine.play(sound) }
        }
        Thread.sleep(forTimeInterval: 0.8)
        let onsets = try recorder.finish { frames, firstFrameSeconds in onsetSeconds(frames, firstFrameSeconds: firstFrameSeconds) }
        var lines: [String] = []
        for phase in Phase.allCases {
            let latencies = plays.indices.filter { plays[$0].phase == phase }.map { index -> String in
                let end = index + 1 < plays.count ? plays[index + 1].seconds : plays[index].seconds + clickIntervalSeconds
                // A click heard a little before its timestamp is the recorder's own jitter.
                guard let onset = onsets.first(where: { $0 >= plays[index].seconds - 0.005 && $0 < end }) else { return "lost" }
                return String(format: "%.1f", (onset - plays[index].seconds) * 1000)
            }
            if !latencies.isEmpty { lines.append(([phase.rawValue] + latencies).joined(separator: " ")) }
        }
        lines.append("ready \(readySeconds)")
        // The first sound heard of all played since the open: the start-up's first click not lost.
        if let firstPlay = plays.first(where: { $0.phase == .startUp }),
           let heard = onsets.first(where: { $0 >= firstPlay.seconds - 0.005 }) {
            lines.append("firstHeard \(heard - openSeconds)")
        }
        return lines.joined(separator: "\n")
    }

    /// 20 ms of a 1 kHz sine, 16-bit mono at 48 kHz.
    static func clickSamples() -> [Int16] {
        (0..<(sampleRate / 50)).map { Int16(20_000 * sin(2 * Double.pi * 1_000 * Double($0) / Double(sampleRate))) }
    }

    /// A 16-bit mono WAV file of `samples`.
    static func wavFile(_ samples: [Int16]) -> Data {
        var data = Data()
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8)); append(UInt32(36 + samples.count * 2))
        data.append(contentsOf: Array("WAVEfmt ".utf8)); append(UInt32(16)); append(UInt16(1)); append(UInt16(1))
        append(UInt32(sampleRate)); append(UInt32(sampleRate * 2)); append(UInt16(2)); append(UInt16(16))
        data.append(contentsOf: Array("data".utf8)); append(UInt32(samples.count * 2))
        samples.forEach { append($0) }
        return data
    }

    /// The CLOCK_MONOTONIC time of every click's first loud frame.
    static func onsetSeconds(_ frames: UnsafeBufferPointer<Float>, firstFrameSeconds: Double) -> [Double] {
        var onsets: [Double] = []
        var quietFrames = quietFramesBeforeOnset
        for (index, frame) in frames.enumerated() {
            if abs(frame) > onsetLevel {
                if quietFrames >= quietFramesBeforeOnset { onsets.append(firstFrameSeconds + Double(index) / Double(sampleRate)) }
                quietFrames = 0
            } else {
                quietFrames += 1
            }
        }
        return onsets
    }

    // MARK: Parent

    /// Runs `starts` children for `player` at `latency`, each against its own fresh private
    /// server of kind `server`. Raw OpenAL gets the latency's periods through an alsoft.conf
    /// named by ALSOFT_CONF. OpenAL Soft's log (ALSOFT_LOGFILE) tells the backend each child
    /// really used; a child on another backend than `server`'s throws.
    /// `environment` is added to each child's (LD_LIBRARY_PATH: which libopenal it loads).
    public static func run(executable: URL, player: Player, latency: OutputLatency, starts: Int,
                           server: BenchServerKind = .pulse, environment: [String: String] = [:]) throws -> [Run] {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("interlude-bench-alsoft-\(getpid()).conf")
        try "[general]\nperiod_size = \(latency.periodFrames)\nperiods = \(latency.periodCount)\n"
            .write(to: config, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: config) }
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("interlude-bench-alsoft-\(getpid()).log")
        defer { try? FileManager.default.removeItem(at: log) }
        return try (0..<starts).map { _ in
            let running = try server.start(label: "clicks")
            defer { running.stop() }
            try? FileManager.default.removeItem(at: log)
            var extra = environment.merging(["ALSOFT_LOGLEVEL": "3", "ALSOFT_LOGFILE": log.path]) { $1 }
            if player == .raw { extra["ALSOFT_CONF"] = config.path }
            let text = try running.runClient(executable, arguments: ["--click-child", player.rawValue, latency.rawValue],
                                             extraEnvironment: extra, scenario: "ClickLatency")
            let backend = initializedBackend(log: (try? String(contentsOf: log, encoding: .utf8)) ?? "")
            guard backend == server.backend else {
                throw BenchError("ClickLatency: the child on \(server.rawValue) ran OpenAL Soft's \(backend ?? "no") backend, not \(server.backend)")
            }
            return try parse(text)
        }
    }

    /// The backend OpenAL Soft's log says it initialised for playback (`Initialized backend "pulse"`).
    static func initializedBackend(log: String) -> String? {
        guard let range = log.range(of: "Initialized backend \"") else { return nil }
        return String(log[range.upperBound...].prefix { $0 != "\"" })
    }

    /// The release a child of `executable` (`--openal-release`) loads with `environment` added.
    public static func openALRelease(executable: URL, environment: [String: String]) throws -> String {
        try BenchChild.output(of: executable, arguments: ["--openal-release"], extra: environment, name: "--openal-release")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The release of the libopenal this process mapped ("1.19.1", "1.24.2"), from its file's
    /// name; what the children load too, through the same LD_LIBRARY_PATH.
    public static func loadedOpenALRelease() -> String {
        // Read to its end: a /proc file's size reads 0.
        let maps = String(decoding: FileHandle(forReadingAtPath: "/proc/self/maps")?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
        for line in maps.split(separator: "\n") where line.contains("libopenal.so") {
            guard let path = line.split(separator: " ").last else { continue }
            let resolved = URL(fileURLWithPath: String(path)).resolvingSymlinksInPath().lastPathComponent
            if let range = resolved.range(of: "libopenal.so.") { return String(resolved[range.upperBound...]) }
        }
        return "unknown"
    }

    static func parse(_ text: String) throws -> Run {
        var run = Run(latenciesByPhase: [:], readySeconds: 0)
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ").map(String.init)
            guard let first = words.first else { continue }
            if first == "ready", words.count == 2, let seconds = Double(words[1]) {
                run.readySeconds = seconds
            } else if first == "firstHeard", words.count == 2, let seconds = Double(words[1]) {
                run.firstHeardSeconds = seconds
            } else if let phase = Phase(rawValue: first) {
                run.latenciesByPhase[phase] = words.dropFirst().map { Double($0) }
            }
        }
        guard !run.latenciesByPhase.isEmpty else {
            throw InterludeError(.deviceUnavailable, "ClickLatency: the child printed no clicks: \(text)")
        }
        return run
    }

    /// The value at `share` (0...1) of the sorted `values`, nearest rank.
    static func percentile(_ values: [Double], _ share: Double) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, max(0, Int((share * Double(sorted.count)).rounded(.up)) - 1))]
    }
}

extension Bench {
    /// The rows of scenario 10: per player and phase, p50, p99 and max latency over every click
    /// heard, clicks lost, the first click after the player was ready, and the start-up time.
    /// With `stack` ("1.24.2/pipewire"), the rows name it: scenario 10 run on other stacks
    /// (`--click-servers`).
    public func clickLatencyRows(_ runsByPlayer: [(ClickLatency.Player, OutputLatency, [ClickLatency.Run])],
                                 stack: String? = nil) -> [BenchRow] {
        var rows: [BenchRow] = []
        for (player, latency, runs) in runsByPlayer {
            let scenario = "10. Click latency (\(player.rawValue), \(latency.rawValue), \(runs.count) starts\(stack.map { ", \($0)" } ?? ""))"
            for phase in ClickLatency.Phase.allCases {
                let clicks = runs.flatMap { $0.latenciesByPhase[phase] ?? [] }
                guard !clicks.isEmpty else { continue }
                let heard = clicks.compactMap { $0 }
                for (label, share) in [("p50", 0.5), ("p99", 0.99), ("max", 1.0)] {
                    rows.append(BenchRow(scenario: scenario, measure: "\(phase.rawValue): \(label) latency", unit: "ms",
                                         engine: ClickLatency.percentile(heard, share), engineSamples: heard))
                }
                // Which click of its run each lost one was (1 = the first after the phase began).
                let lostNumbers = runs.flatMap { run in
                    (run.latenciesByPhase[phase] ?? []).enumerated().compactMap { $0.element == nil ? $0.offset + 1 : nil }
                }
                let which = lostNumbers.isEmpty ? "" : " (click number in its run: \(lostNumbers.map(String.init).joined(separator: ", ")))"
                rows.append(BenchRow(scenario: scenario, measure: "\(phase.rawValue): clicks lost of \(clicks.count)\(which)", unit: "",
                                     engine: Double(clicks.count - heard.count)))
                if phase != .steady {
                    let firsts = runs.compactMap { $0.latenciesByPhase[phase]?.first }
                    rows.append(BenchRow(scenario: scenario, measure: "\(phase.rawValue): first click, worst of \(firsts.count) (lost counts as none)",
                                         unit: "ms", engine: firsts.compactMap { $0 }.max()))
                    // The worst of many starts is a maximum, which exceeds the steady p99 by
                    // chance alone (63% of the time over 100 draws from the same distribution):
                    // the first clicks' own p99 is the like-for-like comparison.
                    rows.append(BenchRow(scenario: scenario, measure: "\(phase.rawValue): first click, p99 over \(firsts.count) starts",
                                         unit: "ms", engine: ClickLatency.percentile(firsts.compactMap { $0 }, 0.99)))
                }
            }
            rows.append(BenchRow(scenario: scenario, measure: "open to ready (the engine's init), median", unit: "ms",
                                 engine: Measure.median(runs.map { $0.readySeconds * 1000 })))
            // Against raw OpenAL's: the first sound a player hears, the ones lost skipped.
            let firstHeard = runs.compactMap { $0.firstHeardSeconds.map { $0 * 1000 } }
            rows.append(BenchRow(scenario: scenario, measure: "open to the first click heard (lost ones skipped), median", unit: "ms",
                                 engine: firstHeard.isEmpty ? nil : Measure.median(firstHeard), engineSamples: firstHeard))
        }
        return rows
    }
}
