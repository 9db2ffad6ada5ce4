#if canImport(Glibc)
import Glibc
#endif
import Foundation
import InterludeScene
import Testing
@testable import Interlude

/// `interlude render` as a real child process, interrupted mid-render by a real signal, and what
/// is left on disk afterwards: SIGINT and SIGTERM abandon it cleanly (no temporary file, one
/// line, exit 130 or 143), SIGKILL leaves a temporary file the next render of the same output
/// removes once its owner is gone, SIGTSTP and SIGCONT pause and resume it to the same bytes.
/// No device is opened in this process, so the suite need not nest in ``EngineSuites``.
@Suite struct RenderInterruptionTests {
    /// A folder with a one-second 8 kHz tone and a scene of `seconds` that loops it.
    static func makeScene(seconds: Int) throws -> URL {
        let folder = try RenderCommandTests.makeFolder()
        let writer = try WAVFileWriter(path: folder.appendingPathComponent("tone.wav").path,
                                       format: AudioFormat(sampleRate: 8_000, channelCount: 1), sampleType: .int16)
        try writer.append(TestEngine.sineSamples(frequency: 440, frameCount: 8_000, sampleRate: 8_000))
        try writer.finish()
        _ = try RenderCommandTests.write("""
            {"sampleRate": 8000, "channels": 1, "duration": \(seconds), "sounds": {"tone": "tone.wav"},
             "events": [{"at": 0, "do": "music.play", "sound": "tone"},
                        {"at": 0.5, "do": "play", "id": "a", "sound": "tone", "loop": true, "gain": 0.5},
                        {"at": 1, "do": "interruption.begin", "reason": "call"},
                        {"at": 2, "do": "interruption.end", "shouldResume": true}]}
            """, to: folder)
        return folder
    }

    /// The folder's files, hidden ones included, sorted.
    static func listing(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    /// The temporary files beside `name` in `folder`.
    static func temporaryFiles(of name: String, in folder: URL) throws -> [String] {
        try listing(folder).filter { $0.hasPrefix(".\(name).") }
    }

    /// A render started as a child process, its standard error going to a file outside `folder`.
    struct RenderProcess {
        let child: ChildProcess
        let standardErrorPath: String

        init(_ arguments: [String], in folder: URL) throws {
            standardErrorPath = NSTemporaryDirectory() + "interlude-render-stderr-\(UUID().uuidString)"
            let descriptor = open(standardErrorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            guard descriptor >= 0 else { throw TestFailure("cannot create \(standardErrorPath)") }
            defer { close(descriptor) }
            let executable = try ProductProcess.executable("interlude").path
            // Relative paths: the child runs in `folder`.
            let changeDirectory = ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", folder.path, executable]
            var environment = ProcessInfo.processInfo.environment
            environment.removeValue(forKey: "INTERLUDE_LOG_LEVEL")
            child = try ChildProcess(changeDirectory + arguments, environment: environment, stderr: descriptor)
        }

        var standardError: String {
            (try? String(contentsOfFile: standardErrorPath, encoding: .utf8)) ?? ""
        }

        /// Waits until the render has written past the WAV header into its temporary file.
        func waitForTemporaryFile(of name: String, in folder: URL, timeoutSeconds: Double = 60) throws -> String? {
            let deadline = ContinuousClock.now + .seconds(timeoutSeconds)
            while ContinuousClock.now < deadline && child.isRunning {
                for file in try temporaryFiles(of: name, in: folder) {
                    let attributes = try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(file).path)
                    if let size = attributes?[.size] as? Int, size > 44 { return file }
                }
                Thread.sleep(forTimeInterval: 0.002)
            }
            return nil
        }

        /// The exit code, when the child exited normally.
        var exitCode: Int32? {
            guard let status = child.status, status & 0x7f == 0 else { return nil }
            return (status >> 8) & 0xff
        }

        func removeStandardError() { unlink(standardErrorPath) }
    }

    static let arguments = ["render", "scene.json", "--output", "out.wav", "--log", "out.jsonl", "--plot", "out.svg"]

    @Test("SIGINT and SIGTERM mid-render remove every temporary file, print one line and exit 128 + the signal",
          arguments: [SIGINT, SIGTERM])
    func stopSignalLeavesNothing(signal: Int32) throws {
        let folder = try Self.makeScene(seconds: 86_400)
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = try Self.listing(folder)
        let render = try RenderProcess(Self.arguments, in: folder)
        defer { render.removeStandardError() }
        let temporary = try render.waitForTemporaryFile(of: "out.wav", in: folder)
        try #require(temporary != nil, "no temporary WAV appeared; stderr: \(render.standardError)")
        render.child.send(signal)
        #expect(render.child.waitForExit(timeoutSeconds: 30), "the render did not stop after the signal")
        #expect(render.exitCode == 128 + signal, "exit status \(String(describing: render.child.status))")
        let after = try Self.listing(folder)
        #expect(after == before, "left behind: \(Set(after).subtracting(before))")
        let lines = render.standardError.split(separator: "\n")
        #expect(lines.count == 1, "\(render.standardError)")
        let name = signal == SIGINT ? "SIGINT" : "SIGTERM"
        #expect(lines.first?.hasPrefix("interlude render: stopped by \(name)") == true, "\(render.standardError)")
    }

    @Test("a SIGKILLed render's temporary file is removed by the next render of the same output")
    func killedRenderIsCleanedUpByTheNext() throws {
        let folder = try Self.makeScene(seconds: 86_400)
        defer { try? FileManager.default.removeItem(at: folder) }
        let render = try RenderProcess(Self.arguments, in: folder)
        defer { render.removeStandardError() }
        let temporary = try render.waitForTemporaryFile(of: "out.wav", in: folder)
        try #require(temporary != nil, "no temporary WAV appeared; stderr: \(render.standardError)")
        render.child.send(SIGKILL)
        #expect(render.child.waitForExit(timeoutSeconds: 30))
        // Killed outright: its temporary file is still there, with its PID in the name.
        let left = try Self.temporaryFiles(of: "out.wav", in: folder)
        #expect(left == [temporary!])
        #expect(temporary!.hasPrefix(".out.wav.\(render.child.pid)."))

        // The next render of the same output: a short scene, written over the long one.
        _ = try RenderCommandTests.write("""
            {"sampleRate": 8000, "channels": 1, "duration": 1, "sounds": {"tone": "tone.wav"},
             "events": [{"at": 0, "do": "music.play", "sound": "tone"}]}
            """, to: folder)
        let next = try RenderCommandTests.run(Self.arguments, in: folder)
        #expect(next.status == 0, "\(next.standardError)")
        #expect(try Self.temporaryFiles(of: "out.wav", in: folder).isEmpty)
        #expect(try WAVFileContents(contentsOf: folder.appendingPathComponent("out.wav")).samples.count == 8_000)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.jsonl").path))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.svg").path))
    }

    @Test("a render in progress keeps its temporary file while another renders the same output")
    func liveRenderIsNotCleanedUp() throws {
        let folder = try Self.makeScene(seconds: 86_400)
        defer { try? FileManager.default.removeItem(at: folder) }
        let long = try RenderProcess(["render", "scene.json", "--output", "out.wav"], in: folder)
        defer { long.removeStandardError() }
        let temporary = try long.waitForTemporaryFile(of: "out.wav", in: folder)
        try #require(temporary != nil, "no temporary WAV appeared; stderr: \(long.standardError)")
        _ = try RenderCommandTests.write("""
            {"sampleRate": 8000, "channels": 1, "duration": 1, "sounds": {"tone": "tone.wav"},
             "events": [{"at": 0, "do": "music.play", "sound": "tone"}]}
            """, to: folder, name: "short.json")
        let short = try RenderCommandTests.run(["render", "short.json", "--output", "out.wav"], in: folder)
        #expect(short.status == 0, "\(short.standardError)")
        #expect(try Self.temporaryFiles(of: "out.wav", in: folder) == [temporary!], "the live render's file was touched")
        long.child.send(SIGTERM)
        #expect(long.child.waitForExit(timeoutSeconds: 30))
        #expect(long.exitCode == 143)
        // The abandoned render removed only its own file: the short render's output stays.
        #expect(try Self.temporaryFiles(of: "out.wav", in: folder).isEmpty)
        #expect(try WAVFileContents(contentsOf: folder.appendingPathComponent("out.wav")).samples.count == 8_000)
    }

    @Test("SIGTSTP then SIGCONT pause a render and resume it to the same bytes as an uninterrupted one")
    func stopAndContinueGiveTheSameBytes() throws {
        let folder = try Self.makeScene(seconds: 600)
        defer { try? FileManager.default.removeItem(at: folder) }
        let render = try RenderProcess(["render", "scene.json", "--output", "paused.wav"], in: folder)
        defer { render.removeStandardError() }
        let temporary = try render.waitForTemporaryFile(of: "paused.wav", in: folder)
        try #require(temporary != nil, "no temporary WAV appeared; stderr: \(render.standardError)")
        render.child.send(SIGTSTP)
        #expect(Self.waitForState("T", of: render.child.pid), "the render did not stop on SIGTSTP")
        let stoppedSize = try Self.size(of: folder.appendingPathComponent(temporary!))
        Thread.sleep(forTimeInterval: 0.2)
        #expect(try Self.size(of: folder.appendingPathComponent(temporary!)) == stoppedSize, "it wrote while stopped")
        render.child.send(SIGCONT)
        #expect(render.child.waitForExit(timeoutSeconds: 120))
        #expect(render.exitCode == 0, "\(render.standardError)")

        let whole = try RenderCommandTests.run(["render", "scene.json", "--output", "whole.wav"], in: folder, limitSeconds: 120)
        #expect(whole.status == 0, "\(whole.standardError)")
        let paused = try Data(contentsOf: folder.appendingPathComponent("paused.wav"))
        let uninterrupted = try Data(contentsOf: folder.appendingPathComponent("whole.wav"))
        #expect(paused.count == 44 + 600 * 8_000 * 2)
        #expect(paused == uninterrupted, "a paused and resumed render differs from an uninterrupted one")
    }

    static func size(of url: URL) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int ?? -1
    }

    /// Waits for the process's state letter in /proc (T: stopped).
    static func waitForState(_ state: Character, of pid: pid_t, timeoutSeconds: Double = 10) -> Bool {
        let deadline = ContinuousClock.now + .seconds(timeoutSeconds)
        while ContinuousClock.now < deadline {
            if let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
               let close = stat.lastIndex(of: ")"),
               stat[stat.index(close, offsetBy: 2)] == state {
                return true
            }
            Thread.sleep(forTimeInterval: 0.002)
        }
        return false
    }
}
