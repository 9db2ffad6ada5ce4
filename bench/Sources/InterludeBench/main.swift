// InterludeBench: the engine against a raw C OpenAL Soft + libvorbisfile baseline.
//   InterludeBench [--quick] [--output bench-results.json] [--only 1,3,...] [--peers DIR] (scenarios 1 to 23)
//                  [--click-starts N] [--click-players raw,interlude,...] [--click-latencies low,...] (scenario 10)
//                  [--click-servers pulse,pipewire-pulse,pipewire] (scenario 10 on private PulseAudio and PipeWire
//                  servers; its rows name the stack, e.g. "1.24.2/pipewire")
//                  [--click-libraries system,DIR,...] (scenario 10's children on each libopenal: the system's, or DIR's)
//                  --stacks: scenario 10 on every stack (make bench-stacks; bench/results/bench-results-stacks.json)
//   InterludeBench --tables [--check]   (the docs' tables from docs/bench-results.json; make bench-tables)
// Prints a Markdown table to stdout and writes the JSON to --output.
import BenchKit
import Interlude
import Foundation
import MallocCounter

var arguments = Array(CommandLine.arguments.dropFirst())

/// The malloc interposer (Sources/MallocCounter), when it is live in this process.
let counter: AllocationCounter? = malloc_counter_is_active() != 0
    ? AllocationCounter(start: { malloc_counter_start() }, stop: { UInt64(malloc_counter_stop()) },
                        netBytes: { Int64(malloc_counter_net_bytes()) })
    : nil

/// Memory children: `--memory-child idle|stream|full|load|loadPlaced PATH` prints this process's peak RSS in KiB.
if arguments.first == "--memory-child", arguments.count == 3 {
    let path = arguments[2]
    switch arguments[1] {
    case "load", "loadPlaced":
        print(try Bench.loadIntoEngine(path: path, placed: arguments[1] == "loadPlaced"))
        exit(0)
    case "stream": _ = try Bench.streamThroughEngine(path: path)
    case "full":
        // The same start as the others (an engine opened), then the whole track in memory.
        try SceneRunner.offlineEngine().shutdown()
        _ = try Bench.decodeFully(path: path)
    default: _ = try SceneRunner.offlineEngine().shutdown()
    }
    print(Measure.peakResidentKiB())
    exit(0)
}

/// The device-lost child: `--lost-device-child SECONDS SERVER_PID` prints its LostDevice figures.
if arguments.first == "--lost-device-child", arguments.count == 3, let seconds = Double(arguments[1]),
   let serverPID = Int32(arguments[2]) {
    print(try LostDevice.measureInChild(serverPID: serverPID, seconds: seconds).line)
    exit(0)
}

/// The off-the-lock child: `--offlock-child SECONDS SERVER_PID` prints its OffLockLatency figures.
if arguments.first == "--offlock-child", arguments.count == 3, let seconds = Double(arguments[1]),
   let serverPID = Int32(arguments[2]) {
    print(try OffLockLatency.measureInChild(serverPID: serverPID, seconds: seconds).line)
    exit(0)
}

/// The click-latency child: `--click-child PLAYER LATENCY` prints its clicks' latencies.
if arguments.first == "--click-child", arguments.count == 3, let player = ClickLatency.Player(rawValue: arguments[1]),
   let latency = OutputLatency(rawValue: arguments[2]) {
    print(try ClickLatency.measureInChild(player: player, latency: latency))
    exit(0)
}

/// The underrun child: `--underrun-child LATENCY SECONDS` prints its Underruns figures.
if arguments.first == "--underrun-child", arguments.count == 3, let latency = OutputLatency(rawValue: arguments[1]),
   let seconds = Double(arguments[2]) {
    print(try Underruns.measureInChild(latency: latency, seconds: seconds).line)
    exit(0)
}

/// The stalled-reads child: `--stall-child TRACK SECONDS FIRST EVERY STALL LIMIT EMITTERS BUFFERS
/// BUFFER_SECONDS` plays scenario 16 once on the null backend and prints its figures.
if arguments.first == "--stall-child" {
    print(try StalledReads.measureInChild(Array(arguments.dropFirst())))
    exit(0)
}

/// The start-up child: `--start-child blocking|async null|pulse` prints its StartAndIdle.StartFigures.
if arguments.first == "--start-child", arguments.count == 3, let creation = StartAndIdle.Creation(rawValue: arguments[1]),
   let output = StartAndIdle.Output(rawValue: arguments[2]) {
    print(try StartAndIdle.measureStartInChild(creation: creation, output: output).line)
    exit(0)
}

/// The idle child: `--idle-child SECONDS null|pulse [running]` prints its StartAndIdle.IdleFigures;
/// with `running`, the engine keeps its output running while idle.
if arguments.first == "--idle-child", (3...4).contains(arguments.count), let seconds = Double(arguments[1]),
   let output = StartAndIdle.Output(rawValue: arguments[2]) {
    let keepsOutputRunning = arguments.count == 4 && arguments[3] == "running"
    print(try StartAndIdle.measureIdleInChild(seconds: seconds, output: output, keepsOutputRunning: keepsOutputRunning).line)
    exit(0)
}

/// The change-latency child: `--change-latency-child TIMING CHANGES` prints its ChangeLatency.Figures.
if arguments.first == "--change-latency-child", arguments.count == 3, let timing = UpdateTiming(rawValue: arguments[1]),
   let changes = Int(arguments[2]) {
    print(try ChangeLatency.measureInChild(timing: timing, changes: changes).line)
    exit(0)
}

/// The adaptive-music child: `--transition-child TRACK` prints the frames each of twenty
/// transitions on the bar came late, on the null backend.
if arguments.first == "--transition-child", arguments.count == 2 {
    print(try AdaptiveMusicBench.measureTransitionsInChild(path: arguments[1]))
    exit(0)
}

/// `--malloc-counter-active` prints 1 when the malloc interposer is live, 0 when it stands aside
/// (under a sanitizer, whose runtime owns the allocator).
if arguments.first == "--malloc-counter-active" {
    print(counter == nil ? 0 : 1)
    exit(0)
}

/// The stream-memory child (for the smoke tests, whose process has no malloc counter):
/// `--stream-memory-child TRACK_SECONDS RENDER_SECONDS` prints its StreamMemory figures.
if arguments.first == "--stream-memory-child", arguments.count == 3, let trackSeconds = Double(arguments[1]),
   let renderSeconds = Double(arguments[2]) {
    guard let counter else { throw BenchError("--stream-memory-child: the malloc counter is not active") }
    print(try StreamMemory.measure(counter: counter, trackSeconds: trackSeconds, renderSeconds: renderSeconds).line)
    exit(0)
}

/// `--openal-release` prints the release of the libopenal this process loaded.
if arguments.first == "--openal-release" {
    print(ClickLatency.loadedOpenALRelease())
    exit(0)
}

/// The docs' tables: `--tables [--check]` rewrites (or only checks) the tables between
/// `<!-- bench:NAME:begin/end -->` markers in docs/performance.md and README.md from
/// docs/bench-results.json, in the current folder (the repository's root).
if arguments.first == "--tables" {
    let checkOnly = arguments.dropFirst().contains("--check")
    let changed: [String]
    do {
        changed = try BenchTables.update(root: URL(fileURLWithPath: FileManager.default.currentDirectoryPath), checkOnly: checkOnly)
    } catch {
        FileHandle.standardError.write(Data("InterludeBench --tables: \(error)\n".utf8))
        exit(2)
    }
    for path in changed {
        FileHandle.standardError.write(Data("\(path): \(checkOnly ? "its bench tables differ from" : "bench tables rewritten from") \(BenchTables.snapshotPath)\n".utf8))
    }
    exit(checkOnly && !changed.isEmpty ? 1 : 0)
}

/// `--stack-cells FILE` prints the start-up and latency cells of docs/stacks.md's
/// stack-by-behaviour table from a `--stacks` run's JSON (make bench-tables).
if arguments.first == "--stack-cells", arguments.count == 2 {
    do {
        for line in try BenchTables(jsonPath: arguments[1], source: arguments[1]).stackCells() { print(line) }
    } catch {
        FileHandle.standardError.write(Data("InterludeBench --stack-cells: \(error)\n".utf8))
        exit(2)
    }
    exit(0)
}

/// The idle-engine child (scenario 11): `--idle-engine-child` opens an engine, prints "ready"
/// and waits for its standard input to close.
if arguments.first == "--idle-engine-child" {
    try IdleEngine.runInChild()
    exit(0)
}

/// One side of the reference scene, for a profiler: `--scene-side engine|c|engine-batch ROUNDS`
/// renders the 60 s reference scene ROUNDS times on that side only (`perf record` it, or
/// callgrind, as scenario 1's instruction rows do); with `-silent` after the side (`c-silent`),
/// without the soundtrack; with `quick` after ROUNDS, at `make test`'s sizes (a 1 s scene).
if arguments.first == "--scene-side", arguments.count == 3 || (arguments.count == 4 && arguments[3] == "quick"),
   let rounds = Int(arguments[2]) {
    let bench = try Bench(sizes: arguments.count == 4 ? .quick : .full)
    var spec = SceneSpec(emitterCount: bench.sizes.referenceEmitterCount, seconds: bench.sizes.sceneSeconds,
                         musicPath: arguments[1].hasSuffix("-silent") ? nil : bench.sceneTrack)
    spec.movesInBatches = arguments[1].hasPrefix("engine-batch")
    for _ in 0..<rounds {
        let seconds = try Measure.cpuSeconds {
            if arguments[1].hasPrefix("c") { try bench.runner.renderBaseline(spec) } else { try bench.runner.renderEngine(spec) }
        }
        print(String(format: "%.3f s", seconds))
    }
    exit(0)
}

var isQuick = false
/// Where bench/peers/build.sh put the peer harnesses (scenario 11).
var peersFolder: String?
var outputPath = "bench-results.json"
var only: Set<Int>?
/// Scenario 10's starts per player and setting (the sizes' own when nil) and the players it runs.
var clickStarts: Int?
var clickPlayers = Set(ClickLatency.Player.allCases)
var clickLatencies = Set(OutputLatency.allCases)
/// Scenario 10's servers; nil: the private PulseAudio alone, its rows named as before.
var clickServers: [BenchServerKind]?
/// Scenario 10's libopenal folders ("system": the loader's own search); nil: the bench's own.
var clickLibraries: [String]?
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    switch argument {
    case "--quick": isQuick = true
    case "--output" where !arguments.isEmpty: outputPath = arguments.removeFirst()
    case "--only" where !arguments.isEmpty: only = Set(arguments.removeFirst().split(separator: ",").compactMap { Int($0) })
    case "--peers" where !arguments.isEmpty: peersFolder = arguments.removeFirst()
    case "--click-starts" where !arguments.isEmpty: clickStarts = Int(arguments.removeFirst())
    case "--click-players" where !arguments.isEmpty:
        clickPlayers = Set(arguments.removeFirst().split(separator: ",").compactMap { ClickLatency.Player(rawValue: String($0)) })
    case "--click-servers" where !arguments.isEmpty:
        clickServers = arguments.removeFirst().split(separator: ",").compactMap { BenchServerKind(rawValue: String($0)) }
    case "--click-libraries" where !arguments.isEmpty:
        clickLibraries = arguments.removeFirst().split(separator: ",").map(String.init)
    case "--stacks":
        // Start-up on every stack: raw OpenAL against the engine, at the default latency.
        only = [10]
        clickServers = BenchServerKind.allCases
        clickLibraries = ["system", ".build/openal-1.24.2/lib"]
        clickPlayers = [.raw, .interlude]
        clickLatencies = [.balanced]
    case "--click-latencies" where !arguments.isEmpty:
        clickLatencies = Set(arguments.removeFirst().split(separator: ",").compactMap { OutputLatency(rawValue: String($0)) })
    default:
        FileHandle.standardError.write(Data("usage: InterludeBench [--quick] [--output FILE] [--only 1,2,...] [--peers DIR] [--click-starts N] [--click-players P,...] [--click-latencies L,...] [--click-servers S,...] [--click-libraries L,...] [--stacks]\n".utf8))
        exit(2)
    }
}

let selected = only
@MainActor func runs(_ scenario: Int) -> Bool { selected?.contains(scenario) ?? true }

let bench = try Bench(sizes: isQuick ? .quick : .full, allocationCounter: counter) { message in
    FileHandle.standardError.write(Data("[bench] \(message)\n".utf8))
}

func memoryChild(_ mode: String, _ path: String) throws -> Int {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    process.arguments = ["--memory-child", mode, path]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0, let kib = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
        throw NSError(domain: "InterludeBench", code: 1, userInfo: [NSLocalizedDescriptionKey: "memory child \(mode) failed: \(text)"])
    }
    return kib
}

var rows: [BenchRow] = []
if runs(1) {
    rows += try bench.referenceScene()
    if let valgrind = ReferenceInstructions.valgrind() {
        FileHandle.standardError.write(Data("[bench] 1. reference scene under callgrind\n".utf8))
        rows += try ReferenceInstructions.rows(bench: URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath(), valgrind: valgrind,
                                               quick: isQuick, emitterCount: bench.sizes.referenceEmitterCount,
                                               sceneSeconds: bench.sizes.sceneSeconds)
    } else {
        FileHandle.standardError.write(Data("[bench] 1. no valgrind: the instruction rows are left out (make deps installs it)\n".utf8))
    }
}
if runs(2) { rows += try bench.scaling() }
if runs(3) { rows += try bench.vorbisDecode() }
if runs(4) { rows += try bench.updateCost() }
if runs(5) { rows += try bench.interruption() }
if runs(6) { rows += try bench.rebuild() }
if runs(7) {
    FileHandle.standardError.write(Data("[bench] 7. memory\n".utf8))
    let path = try bench.longTrackPath
    let idleKiB = try memoryChild("idle", path)
    rows += bench.memoryRows(idleKiB: idleKiB, streamKiB: try memoryChild("stream", path), fullKiB: try memoryChild("full", path))
    // A loaded sound against its PCM at the source's own format: 16 bits for the WAV, the
    // decoder's 32-bit float for Vorbis, which has no integer format of its own.
    let wavPath = try BenchAssets.wavTrack(seconds: bench.sizes.longTrackSeconds)
    rows.append(bench.loadedSoundRow(source: "16-bit stereo WAV", pcmFormat: "16 bits", idleKiB: idleKiB,
                                     loadedKiB: try memoryChild("load", wavPath), pcmBytes: try Bench.pcmByteCount(path: wavPath, bytesPerSample: 2)))
    rows.append(bench.loadedSoundRow(source: "stereo Ogg Vorbis track", pcmFormat: "32-bit float", idleKiB: idleKiB,
                                     loadedKiB: try memoryChild("load", path), pcmBytes: try Bench.pcmByteCount(path: path, bytesPerSample: 4)))
    rows.append(bench.placedSoundRow(source: "16-bit stereo WAV", pcmFormat: "16 bits", idleKiB: idleKiB,
                                     placedKiB: try memoryChild("loadPlaced", wavPath), pcmBytes: try Bench.pcmByteCount(path: wavPath, bytesPerSample: 2)))
    rows.append(bench.placedSoundRow(source: "stereo Ogg Vorbis track", pcmFormat: "32-bit float", idleKiB: idleKiB,
                                     placedKiB: try memoryChild("loadPlaced", path), pcmBytes: try Bench.pcmByteCount(path: path, bytesPerSample: 4)))
    if let counter { rows += StreamMemory.rows(try StreamMemory.measure(counter: counter, trackSeconds: 10, renderSeconds: 2)) }
}
if runs(8) { rows += try bench.startup() }
if runs(9) {
    FileHandle.standardError.write(Data("[bench] 9. device lost\n".utf8))
    rows += bench.lostDeviceRows(try LostDevice.run(executable: URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath(),
                                                    arguments: ["--lost-device-child", "\(bench.sizes.lostDeviceSeconds)"]))
}
// 11: the peers, each its own process, 20 s of real time each per round.
if runs(11) {
    let benchExecutable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    let peers = peersFolder.map { PeerPlayer.peers(in: URL(fileURLWithPath: $0)) } ?? []
    // InterludePlayer and BenchFloor are built next to the bench; floor-peer by bench/peers/build.sh.
    let floors = PeerPlayer.floors(swiftFolder: benchExecutable.deletingLastPathComponent(),
                                   peersFolder: peersFolder.map { URL(fileURLWithPath: $0) })
    let folder = benchExecutable.deletingLastPathComponent()
    rows += try bench.peers(interludes: [.interlude(folder: folder), .interlude(folder: folder, updatesOnGameThread: true)], peers: peers,
                            floors: floors, seconds: isQuick ? 1 : 20, rounds: isQuick ? 1 : 5)
    FileHandle.standardError.write(Data("[bench] 11. an idle engine\n".utf8))
    rows += IdleEngine.rows(try IdleEngine.measure(executable: benchExecutable, seconds: isQuick ? 1 : 10))
}
if runs(12) {
    FileHandle.standardError.write(Data("[bench] 12. async loading\n".utf8))
    rows += try AsyncLoadBench.rows(trackSeconds: isQuick ? 1 : 3, rounds: isQuick ? 1 : 3)
}
if runs(13) {
    FileHandle.standardError.write(Data("[bench] 13. codec decode\n".utf8))
    rows += try CodecDecodeBench.rows(seconds: isQuick ? 3 : 60, rounds: bench.sizes.rounds)
}
if runs(14) { rows += try bench.logindSleepRows() }
if runs(18) { rows += try bench.resamplers() }
if runs(19) {
    rows += try bench.startAndIdle(executable: URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath(),
                                   idleSeconds: isQuick ? 2 : 10)
}
if runs(20) {
    FileHandle.standardError.write(Data("[bench] 20. sound design\n".utf8))
    rows += try SoundDesignBench.rows(plays: isQuick ? 2_000 : 20_000, updates: isQuick ? 500 : 5_000, rounds: bench.sizes.rounds)
}
if runs(21) {
    FileHandle.standardError.write(Data("[bench] 21. loudness\n".utf8))
    rows += try LoudnessBench.rows(seconds: isQuick ? 10 : 180, rounds: isQuick ? 1 : bench.sizes.rounds)
}
// 22: when a change reaches the mixer, each in a child on the null backend.
if runs(22) {
    FileHandle.standardError.write(Data("[bench] 22. change latency\n".utf8))
    let benchExecutable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    rows += ChangeLatency.rows(try UpdateTiming.allCases.map { timing in
        (timing, try ChangeLatency.measure(executable: benchExecutable, timing: timing, changes: isQuick ? 20 : 400))
    })
}
if runs(23) {
    FileHandle.standardError.write(Data("[bench] 23. adaptive music\n".utf8))
    rows += try AdaptiveMusicBench.rows(seconds: isQuick ? 5 : 60, rounds: bench.sizes.rounds, counter: counter,
                                        executable: URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath())
}

if runs(10) {
    FileHandle.standardError.write(Data("[bench] 10. click latency\n".utf8))
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    for library in clickLibraries.map({ $0.map(Optional.some) }) ?? [nil] {
        // The children load the library's libopenal ("system": no LD_LIBRARY_PATH).
        let environment = library.map { ["LD_LIBRARY_PATH": $0 == "system" ? "" : URL(fileURLWithPath: $0).path] } ?? [:]
        let release = try ClickLatency.openALRelease(executable: executable, environment: environment)
        for server in clickServers ?? [.pulse] {
            // The native PipeWire backend came in OpenAL Soft 1.22.
            if server == .pipewire, let minor = release.split(separator: ".").dropFirst().first.flatMap({ Int($0) }), minor < 22 {
                FileHandle.standardError.write(Data("[bench] 10. not on \(release)/pipewire: OpenAL Soft \(release) has no native PipeWire backend\n".utf8))
                continue
            }
            var runs: [(ClickLatency.Player, OutputLatency, [ClickLatency.Run])] = []
            for latency in OutputLatency.allCases where clickLatencies.contains(latency) {
                for player in ClickLatency.Player.allCases
                where clickPlayers.contains(player) && (player != .interludeNoWait || latency == .balanced) {
                    runs.append((player, latency, try ClickLatency.run(executable: executable, player: player, latency: latency,
                                                                       starts: clickStarts ?? bench.sizes.clickStarts, server: server,
                                                                       environment: environment)))
                }
            }
            rows += bench.clickLatencyRows(runs, stack: clickServers == nil && library == nil ? nil : "\(release)/\(server.rawValue)")
        }
    }
}
if runs(15) {
    FileHandle.standardError.write(Data("[bench] 15. underruns\n".utf8))
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    rows += bench.underrunRows(try OutputLatency.allCases.map { latency in
        (latency, try Underruns.run(executable: executable, latency: latency, seconds: bench.sizes.underrunSeconds))
    })
}
if runs(16) { rows += try bench.stalledReads(executable: URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()) }
if runs(17) {
    FileHandle.standardError.write(Data("[bench] 17. off the lock\n".utf8))
    rows += bench.offLockRows(try OffLockLatency.run(executable: URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath(),
                                                     arguments: ["--offlock-child", isQuick ? "1" : "3"]))
}

var notes: [String] = []
if counter == nil { notes.append("The malloc interposer was not active: allocations were not counted.") }
let report = BenchReport(rounds: bench.sizes.rounds, isQuick: isQuick, rows: rows, notes: notes)
print(report.markdown)
try report.json().write(to: URL(fileURLWithPath: outputPath))
FileHandle.standardError.write(Data("[bench] wrote \(outputPath)\n".utf8))
