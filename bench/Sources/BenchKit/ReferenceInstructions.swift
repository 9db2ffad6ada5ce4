import Foundation

/// The reference scene's instructions, engine against raw C, counted by callgrind. On a shared
/// machine the scene's CPU time moves by more than its 2% goal between runs (the engine's two
/// rows, which differ only in the facade calls, swap order from one run to the next); the
/// instruction count does not, so it is the figure that can tell 1.02 from 1.03. Each side
/// renders the scene once in its own child (`InterludeBench --scene-side SIDE 1`), under
/// `valgrind --tool=callgrind`, from a copy of the bench without debug info (valgrind 3.19
/// cannot read what the Swift toolchain writes). Both counts include the same bench set-up.
public enum ReferenceInstructions {
    /// The child's sides: C, the engine with one `setPosition` per voice, and with `setPositions`.
    static let sides = ["c", "engine", "engine-batch"]

    /// valgrind on the PATH, or nil (`make deps` installs it).
    public static func valgrind() -> URL? {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return folders.map { URL(fileURLWithPath: String($0)).appendingPathComponent("valgrind") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Scenario 1's instruction rows: `bench` is an InterludeBench executable, run at `sizes`
    /// (`quick` for the smoke test's one-second scene).
    public static func rows(bench: URL, valgrind: URL, quick: Bool, emitterCount: Int, sceneSeconds: Double) throws -> [BenchRow] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("interlude-callgrind-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let stripped = folder.appendingPathComponent("InterludeBench")
        _ = try BenchChild.output(of: URL(fileURLWithPath: "/usr/bin/objcopy"), arguments: ["--strip-debug", bench.path, stripped.path],
                                  name: "objcopy --strip-debug \(bench.path)")
        var counts: [String: Double] = [:]
        for side in sides {
            let profile = folder.appendingPathComponent("callgrind.\(side)")
            _ = try BenchChild.output(of: valgrind, arguments: ["-q", "--tool=callgrind", "--callgrind-out-file=\(profile.path)", stripped.path,
                                                                 "--scene-side", side, "1"] + (quick ? ["quick"] : []),
                                      name: "callgrind of the reference scene's \(side) side")
            counts[side] = try total(inProfile: profile)
        }
        let c = counts["c"] ?? 0
        let scene = "\(emitterCount) voices + soundtrack, \(Int(sceneSeconds)) s offline"
        return [("engine", "\(scene): instructions (callgrind, one render per side)", "reference/instructions"),
                ("engine-batch", "same, engine moving voices with one setPositions per update: instructions", "reference/instructions-batch")]
            .map { side, measure, key in
                let engine = counts[side] ?? 0
                let ratio = engine / c
                return BenchRow(scenario: "1. Reference scene", measure: measure, unit: "G", engine: engine / 1e9, baseline: c / 1e9,
                                ratio: ratio, ratioMeaning: "engine / C", goal: "<= 1.02", isGoalMet: ratio <= 1.02, key: key)
            }
    }

    /// The instructions a callgrind profile counted: its `totals:` line (`summary:` in older
    /// formats).
    static func total(inProfile profile: URL) throws -> Double {
        let text = try String(contentsOf: profile, encoding: .utf8)
        for line in text.split(separator: "\n") where line.hasPrefix("totals:") || line.hasPrefix("summary:") {
            if let value = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) }), value > 0 { return value }
        }
        throw BenchError("\(profile.path): no totals line in the callgrind profile")
    }
}
