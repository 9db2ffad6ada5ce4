#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import Interlude

/// When a device's output really runs (OutputStartWatch) and what that means for a game: a sound
/// played right after init, or right after a rebuild, is heard, none lost.
@Suite struct OutputStartWatchTests {
    /// The rule of when a new stream runs at once, from what the server says: PipeWire always;
    /// PulseAudio only for the default sink, running on blocks no longer than the buffer.
    @Test func aStreamRunsAtOnceOnPipeWireAndOnARunningLowLatencyDefaultSink() {
        typealias Facts = AudioServerProbe.Facts
        let buffer = 0.064
        let pipeWire = Facts(serverName: "PulseAudio (on PipeWire 0.3.65)", defaultSinkIsRunning: false, defaultSinkLatencySeconds: 0)
        let running = Facts(serverName: "pulseaudio", defaultSinkIsRunning: true, defaultSinkLatencySeconds: 0.003)
        #expect(OutputStartRule.runsAtOnce(pipeWire, toDefaultSink: false, bufferSeconds: buffer))
        #expect(OutputStartRule.runsAtOnce(running, toDefaultSink: true, bufferSeconds: buffer))
        #expect(!OutputStartRule.runsAtOnce(running, toDefaultSink: false, bufferSeconds: buffer), "a named device")
        var asLong = running
        asLong.defaultSinkLatencySeconds = buffer
        #expect(OutputStartRule.runsAtOnce(asLong, toDefaultSink: true, bufferSeconds: buffer), "blocks as long as the buffer")
        asLong.defaultSinkLatencySeconds = buffer * 1.01
        #expect(!OutputStartRule.runsAtOnce(asLong, toDefaultSink: true, bufferSeconds: buffer), "blocks longer than the buffer")
        var long = running
        long.defaultSinkLatencySeconds = 2
        #expect(!OutputStartRule.runsAtOnce(long, toDefaultSink: true, bufferSeconds: buffer), "a sink rendering 2 s blocks")
        var idle = running
        idle.defaultSinkIsRunning = false
        #expect(!OutputStartRule.runsAtOnce(idle, toDefaultSink: true, bufferSeconds: buffer))
        var unknown = running
        unknown.defaultSinkLatencySeconds = 0
        #expect(!OutputStartRule.runsAtOnce(unknown, toDefaultSink: true, bufferSeconds: buffer))
        #expect(!OutputStartRule.runsAtOnce(nil, toDefaultSink: true, bufferSeconds: buffer), "no server answered")
    }

    /// 64 ms written ahead at once, then nothing for a second (a PulseAudio stream not started),
    /// then the clock runs: the watch waits for the clock to run.
    @Test func aBufferWrittenAheadIsNotARunningOutput() {
        var watch = OutputStartWatch(bufferSeconds: 0.064, periodSeconds: 0.021)
        let runsAtOnce = watch.observe(clockSeconds: 0, wallSeconds: 0)
        #expect(!runsAtOnce)
        var wall = 0.002
        while wall < 1 {
            let runs = watch.observe(clockSeconds: 0.064, wallSeconds: wall)
            #expect(!runs, "stalled at \(wall) s")
            wall += 0.002
        }
        var runningAt: Double?
        while wall < 2, runningAt == nil {
            // The mixer writes in 21 ms periods once the server takes them.
            let clock = 0.064 + ((wall - 1) / 0.021).rounded(.down) * 0.021
            if watch.observe(clockSeconds: clock, wallSeconds: wall) { runningAt = wall }
            wall += 0.002
        }
        // Not before the clock moves again; within a few 128 ms windows after.
        #expect(runningAt.map { $0 > 1.0 && $0 < 1.4 } == true, "running seen at \(String(describing: runningAt)) s")
    }

    @Test func aClockThatRunsFromTheStartIsSeenWithinAFewWindows() {
        var watch = OutputStartWatch(bufferSeconds: 0.064, periodSeconds: 0.021)
        var wall = 0.0
        var runningAt: Double?
        while wall < 1, runningAt == nil {
            if watch.observe(clockSeconds: 0.064 + wall, wallSeconds: wall) { runningAt = wall }
            wall += 0.002
        }
        #expect((runningAt ?? 1) < 0.2)
    }

    /// Measured on a PulseAudio sink that starts a new stream at once: the clock reads the
    /// buffer written ahead (3 periods) at the first reading, then a period more every period.
    /// Past twice the buffer the backend has taken a buffer's worth: the output runs, a
    /// period after that, not a window after the clock first moved.
    @Test func aClockPastTwiceTheBufferIsRunning() {
        let periodSeconds = 0.0427, bufferSeconds = 3 * 0.0427
        var watch = OutputStartWatch(bufferSeconds: bufferSeconds, periodSeconds: periodSeconds)
        var wall = 0.0
        var runningAt: Double?
        while wall < 1, runningAt == nil {
            let clock = bufferSeconds + (wall / periodSeconds).rounded(.down) * periodSeconds
            if watch.observe(clockSeconds: clock, wallSeconds: wall) { runningAt = wall }
            wall += 0.002
        }
        #expect(runningAt.map { abs($0 - bufferSeconds) < 0.003 } == true, "running seen at \(String(describing: runningAt)) s")
    }

    /// A clock written ahead in quick steps, then standing still, is never running: the
    /// buffer the engine asked for (0, 21, 43, 64 ms), and a first fill of three buffers (a
    /// user's alsoft.conf with more periods, on a sink that holds the stream), past twice the
    /// buffer but not moving on.
    @Test("a clock that stands still after its first fill is not running",
          arguments: [[0, 0.021, 0.043, 0.064], [0, 0.064, 0.128, 0.192]])
    func aClockThatStopsAfterItsFirstFillIsNotRunning(steps: [Double]) {
        var watch = OutputStartWatch(bufferSeconds: 0.064, periodSeconds: 0.021)
        for (index, clock) in steps.enumerated() {
            let runs = watch.observe(clockSeconds: clock, wallSeconds: Double(index) * 0.001)
            #expect(!runs)
        }
        for step in 1...500 {
            let runs = watch.observe(clockSeconds: steps[3], wallSeconds: 0.003 + Double(step) * 0.002)
            #expect(!runs, "stalled at step \(step)")
        }
    }
}

extension EngineSuites {
    /// The engine's init, and a rebuild, return with the output running, on a private PulseAudio
    /// server (recorded off its sink's monitor) and on the null backend. The engine runs in the
    /// PulseProbe child, since OpenAL Soft picks its backend once per process.
    @Suite struct OutputStartTests {
        static let clickCount = 10
        /// Clicks 300 ms apart, 20 ms long: two merge only if the mixer stalls for 200 ms.
        static let clickMilliseconds = 300
        /// Generous: an idle null sink took up to 1.8 s to start a stream here.
        static let startTimeoutSeconds = 15.0

        /// 20 ms of 1 kHz at 48 kHz, 16-bit mono, in `folder`.
        static func writeClick(in folder: URL) throws -> String {
            let samples = (0..<960).map { Int16(20_000 * sin(2 * Double.pi * 1_000 * Double($0) / 48_000)) }
            let bytes = WAVFixture.riff([WAVFixture.fmt(formatTag: 1, channelCount: 1, sampleRate: 48_000, bitsPerSample: 16),
                                         WAVFixture.data(WAVFixture.signed16(samples))])
            let path = folder.appendingPathComponent("click.wav").path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return path
        }

        /// The frames where clicks begin on a recording: a frame above 0.1 after at least 100 ms
        /// of quiet.
        static func onsetFrames(_ recording: SweepRecording) -> [Int] {
            let quietNeeded = recording.sampleRate / 10
            var quiet = quietNeeded
            var onsets: [Int] = []
            for (frame, sample) in recording.samples.enumerated() {
                if abs(sample) > 0.1 {
                    if quiet >= quietNeeded { onsets.append(frame) }
                    quiet = 0
                } else {
                    quiet += 1
                }
            }
            return onsets
        }

        /// Waits until parecord has written audio past its header, so the monitor is recorded
        /// before the probe opens its device.
        static func waitForRecording(_ file: URL, timeoutSeconds: Double = 10) throws {
            let deadline = ContinuousClock.now + .seconds(timeoutSeconds)
            while ContinuousClock.now < deadline {
                let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
                if size > 44 + 4_800 { return }
                Thread.sleep(forTimeInterval: 0.01)
            }
            throw TestFailure("parecord wrote no audio to \(file.path) within \(timeoutSeconds) s")
        }

        /// The clicks are played at the engine's default latency, the one a game gets.
        static func probeArguments(clickPath: String) -> [String] {
            ["--latency", SoundEngine.Configuration().outputLatency?.rawValue ?? "none", "--clicks", clickPath, "--click-count", "\(clickCount)", "--click-ms", "\(clickMilliseconds)",
             "--start-timeout", "\(startTimeoutSeconds)", "--seconds", "120"]
        }

        /// Starts a private server recording its monitor, then the probe playing clicks with
        /// `extraArguments`; checks that the engine's creation (`created`: "init" or "start")
        /// returned with the output running, runs `body` on the probe, and returns the frames where
        /// the recording's clicks begin, and its rate.
        static func recordedClicks(extraArguments: [String] = [], created: String, on stack: Stack = .pulseAudio,
                                   _ body: (PulseProbeProcess, _ opened: ProbeLine) throws -> Void) throws -> (onsets: [Int], sampleRate: Int, recording: SweepRecording) {
            let folder: URL, environment: [String: String], record: (URL) throws -> ChildProcess
            var pulseServer: PrivatePulseServer?, pipeWireServer: PrivatePipeWireServer?
            defer {
                pulseServer?.stop()
                pipeWireServer?.stop()
            }
            switch stack {
            case .pulseAudio, .pulseAudioRunningSink:
                guard PrivatePulseServer.isInstalled else {
                    throw TestFailure("pulseaudio / pulseaudio-utils are not installed (scripts/install-deps.sh installs them)")
                }
                let sinkRuns = if case .pulseAudioRunningSink = stack { true } else { false }
                let server = try PrivatePulseServer(sinkStaysAwake: sinkRuns)
                pulseServer = server
                try server.start()
                (folder, environment, record) = (server.folder, server.clientEnvironment, { try server.record(to: $0) })
            case .pipeWire(let backend):
                guard PrivatePipeWireServer.isInstalled else {
                    throw TestFailure("pipewire, pipewire-pulse, wireplumber, dbus-daemon or pulseaudio-utils is not installed (scripts/install-deps.sh installs them)")
                }
                let server = try PrivatePipeWireServer()
                pipeWireServer = server
                try server.start()
                (folder, environment, record) = (server.folder, backend == .pipewire ? server.nativeClientEnvironment : server.clientEnvironment,
                                                 { try server.record(to: $0) })
            }
            let clickPath = try writeClick(in: folder)
            let recording = folder.appendingPathComponent("clicks.wav")
            let recorder = try record(recording)
            var recorderStopped = false
            defer { if !recorderStopped { PrivatePulseServer.stopRecorder(recorder) } }
            try waitForRecording(recording)

            let probe = try PulseProbeProcess(environment: environment,
                                              arguments: probeArguments(clickPath: clickPath) + extraArguments)
            defer { _ = probe.closeInputAndWait() }
            let opened = try #require(probe.waitFor("opened", timeoutSeconds: startTimeoutSeconds + 5),
                                      "the probe did not open: \(probe.stderrText)")
            #expect(opened.line.bool("outputRunning") == true, "\(created) returned before the output ran: \(opened.line.fields)")
            try #require(probe.waitFor("clicksDone") != nil, "\(probe.allLines.map(\.fields))")
            try body(probe, opened.line)
            // The last click's sound reaches the monitor within PulseAudio's buffering.
            Thread.sleep(forTimeInterval: 1)
            PrivatePulseServer.stopRecorder(recorder)
            recorderStopped = true
            let heard = try SweepRecording(contentsOf: recording)
            return (onsetFrames(heard), heard.sampleRate, heard)
        }

        /// Each click at `onsets` is heard whole: its 20 ms at the level of the clicks' median
        /// (the engine's gains set that level); a click cut short, or partly lost, is quieter.
        static func expectEachClickWhole(_ recording: SweepRecording, onsets: [Int]) {
            let frames = recording.sampleRate / 50 - recording.sampleRate / 1000
            let levels = onsets.map { recording.rms(from: $0, count: frames) }
            guard let median = levels.sorted().dropFirst(levels.count / 2).first else { return }
            #expect(median > 0.1, "the clicks are barely heard: median RMS \(median)")
            for (index, level) in levels.enumerated() {
                #expect(level > 0.8 * median, "click \(index + 1) is not heard whole: RMS \(level) over its 20 ms, the clicks' median \(median)")
            }
        }

        /// What the engine's debug log said of the default sink when it opened its device.
        static func sinkLine(_ stderr: String) -> String? {
            stderr.split(separator: "\n").first { $0.contains("default sink") }
                .map { String($0[($0.range(of: "] ")?.upperBound ?? $0.startIndex)...]) }
        }

        /// The server a case records on, and the OpenAL Soft backend the probe plays through.
        enum Stack {
            /// A private PulseAudio whose null sink idles until the probe plays; OpenAL Soft's
            /// pulse backend.
            case pulseAudio
            /// A private PulseAudio whose sink already runs, a silent stream playing on it, as
            /// a desktop's does while anything plays; OpenAL Soft's pulse backend.
            case pulseAudioRunningSink
            /// A private PipeWire; `backend` says whether through pipewire-pulse or natively.
            case pipeWire(PipeWireRestartTests.Backend)
        }

        /// On PipeWire, through pipewire-pulse (1.19's and 1.24's pulse backend) or 1.24's native
        /// backend, a stream runs from the open, so the engine is ready without waiting for its
        /// clock (``OutputStartRule``): the clicks played right after init are all heard, each
        /// whole (its 20 ms at the click's level), the first included.
        @Test("on PipeWire the engine is ready at once and every click played right after init is heard whole",
              arguments: PipeWireRestartTests.Backend.allCases)
        func clicksRightAfterInitOnPipeWireAreAllHeardWhole(_ backend: PipeWireRestartTests.Backend) throws {
            let release = ALLibrary.fileRelease?.description ?? "unknown"
            guard backend == .pulse || ALLibrary.hasPipeWireBackend else {
                print("OUTPUT-START not run on the native PipeWire backend: OpenAL Soft \(release) has none (it came in 1.22); the pulse case runs over pipewire-pulse")
                return
            }
            var startSeconds: Double?
            let heard = try Self.recordedClicks(created: "init", on: .pipeWire(backend)) { _, opened in
                startSeconds = opened.double("outputStartSeconds")
            }
            PulseDeviceLossTests.figure("OpenAL Soft \(release), \(backend.rawValue) backend on PipeWire: start wait \(startSeconds.map { String(format: "%.3f s", $0) } ?? "none"), heard \(heard.onsets.count) of \(Self.clickCount) clicks")
            #expect(startSeconds == 0, "the engine waited \(String(describing: startSeconds)) s for a PipeWire stream's clock")
            #expect(heard.onsets.count == Self.clickCount, "heard \(heard.onsets.count) of \(Self.clickCount) clicks played right after init")
            Self.expectEachClickWhole(heard.recording, onsets: heard.onsets)
        }

        /// On PulseAudio, a sink that runs already takes a new stream in at once (a stream's
        /// latency there reads a few milliseconds from its first moment), so the engine is ready
        /// without waiting for its clock (``OutputStartRule``), as raw OpenAL is, and the clicks
        /// played right after init are all heard whole. On an idle sink it waits (the next test).
        @Test("on a PulseAudio sink that already runs the engine is ready at once and every click played right after init is heard whole")
        func clicksRightAfterInitOnARunningPulseSinkAreAllHeardWhole() throws {
            var startSeconds: Double?, sinkLine = "no word from the server"
            let heard = try Self.recordedClicks(extraArguments: ["--log-debug"], created: "init", on: .pulseAudioRunningSink) { probe, opened in
                startSeconds = opened.double("outputStartSeconds")
                sinkLine = Self.sinkLine(probe.stderrText) ?? sinkLine
            }
            let release = ALLibrary.fileRelease?.description ?? "unknown"
            PulseDeviceLossTests.figure("OpenAL Soft \(release) on a running PulseAudio sink: start wait \(startSeconds.map { String(format: "%.3f s", $0) } ?? "none"), heard \(heard.onsets.count) of \(Self.clickCount) clicks (\(sinkLine))")
            #expect(startSeconds == 0, "the engine waited \(String(describing: startSeconds)) s on a running sink")
            #expect(heard.onsets.count == Self.clickCount, "heard \(heard.onsets.count) of \(Self.clickCount) clicks played right after init")
            Self.expectEachClickWhole(heard.recording, onsets: heard.onsets)
        }

        /// On an idle null sink the engine waits for the clock (a wait of more than 0 s), and
        /// every click, after init and after a rebuild, is heard.
        @Test func clicksRightAfterInitAndAfterARebuildAreAllHeard() throws {
            let heard = try Self.recordedClicks(extraArguments: ["--log-debug"], created: "init") { probe, opened in
                let waited = try #require(opened.double("outputStartSeconds"))
                PulseDeviceLossTests.figure("on an idle PulseAudio null sink: start wait \(String(format: "%.3f s", waited)) (\(Self.sinkLine(probe.stderrText) ?? "no word from the server"))")
                #expect(waited > 0, "the engine did not wait on an idle sink")
                let rebuildStart = probe.lineCount
                probe.send("rebuild")
                let rebuilt = try #require(probe.waitFor("rebuilt", from: rebuildStart, timeoutSeconds: Self.startTimeoutSeconds + 5),
                                           "\(probe.allLines.map(\.fields))")
                #expect(rebuilt.line.bool("outputRunning") == true, "the rebuild returned before the output ran")
                probe.send("clicks")
                try #require(probe.waitFor("clicksDone", from: rebuilt.index) != nil)
            }
            #expect(heard.onsets.count == 2 * Self.clickCount, "heard \(heard.onsets.count) of \(2 * Self.clickCount) clicks (10 after init, 10 after the rebuild)")
            Self.expectEachClickWhole(heard.recording, onsets: heard.onsets)
        }

        @Test func clicksRightAfterAnAsyncStartAreAllHeard() throws {
            let heard = try Self.recordedClicks(extraArguments: ["--async-start"], created: "start") { _, _ in }
            #expect(heard.onsets.count == Self.clickCount, "heard \(heard.onsets.count) of \(Self.clickCount) clicks played right after the async start")
        }

        /// Pairs of clicks 150 ms apart, the pairs 2 s apart: the engine idles between pairs, so
        /// the driver pauses the output (after ``SoundEngine/Configuration/idleOutputPauseSeconds``,
        /// 0.5 s here, so that a loaded machine's late idle checks still pause it in time), and
        /// each pair's first click runs it again while its second finds it running. Every click
        /// is heard, and a pair's two clicks stay 150 ms apart to within what the first click may
        /// be late by after the pause.
        @Test func clicksAfterTheOutputPausedWhileIdleAreAllHeardOnTime() throws {
            let pairCount = 5, pairMilliseconds = 150.0
            var pausedBefore: [Bool] = []
            let heard = try Self.recordedClicks(extraArguments: ["--click-count", "\(pairCount)", "--click-ms", "2000",
                                                                 "--click-pair-ms", "\(Int(pairMilliseconds))", "--idle-pause", "0.5"],
                                                created: "init") { probe, _ in
                pausedBefore = probe.allLines.filter { $0.event == "clickPair" }.map { $0.bool("outputWasPaused") == true }
            }
            // The first pair plays right after init; every later one after 2 s of silence.
            #expect(pausedBefore == [false] + Array(repeating: true, count: pairCount - 1),
                    "the output was not paused before each later pair: \(pausedBefore)")
            try #require(heard.onsets.count == 2 * pairCount, "heard \(heard.onsets.count) of \(2 * pairCount) clicks")
            let spacings = stride(from: 0, to: heard.onsets.count, by: 2).map { index in
                Double(heard.onsets[index + 1] - heard.onsets[index]) * 1000 / Double(heard.sampleRate)
            }
            // A pair's first click late by d after a pause shortens the pair by d.
            let lateMilliseconds = spacings.dropFirst().map { pairMilliseconds - $0 }
            PulseDeviceLossTests.figure("a click after the output paused while idle, later than one on the running output by "
                                        + lateMilliseconds.map { String(format: "%.1f", $0) }.joined(separator: ", ") + " ms"
                                        + String(format: " (the pair right after init: %.1f ms)", pairMilliseconds - spacings[0]))
            for late in lateMilliseconds {
                #expect(late <= Self.pauseLatenessLimitMilliseconds && late >= -Self.pauseLatenessLimitMilliseconds,
                        "a click after the pause was \(late) ms late against the running output")
            }
        }

        /// How much later (or earlier) a click after the idle pause may sound than one on the
        /// running output.
        static let pauseLatenessLimitMilliseconds = 60.0

        @Test func onTheNullBackendInitAndRebuildReturnWithTheOutputRunning() throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("interlude-null-start-\(getpid())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            var environment = ProcessInfo.processInfo.environment
            environment["ALSOFT_DRIVERS"] = "null"
            let probe = try PulseProbeProcess(environment: environment,
                                              arguments: Self.probeArguments(clickPath: try Self.writeClick(in: folder)))
            defer { _ = probe.closeInputAndWait() }
            let opened = try #require(probe.waitFor("opened", timeoutSeconds: Self.startTimeoutSeconds + 5), "\(probe.stderrText)")
            #expect(opened.line.bool("outputRunning") == true)
            #expect(opened.line.double("outputStartSeconds") != nil)
            try #require(probe.waitFor("clicksDone") != nil, "\(probe.allLines.map(\.fields))")
            probe.send("rebuild")
            let rebuilt = try #require(probe.waitFor("rebuilt", timeoutSeconds: Self.startTimeoutSeconds + 5), "\(probe.allLines.map(\.fields))")
            #expect(rebuilt.line.bool("outputRunning") == true)
            #expect(rebuilt.line.double("outputStartSeconds") != nil)
        }
    }
}
