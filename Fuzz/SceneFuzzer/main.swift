// libFuzzer harness for the scene-file parser: the JSON reader (numbers, strings and escapes,
// nesting) and the strict scene validation on top of it. Sound paths resolve against a tmpfs
// folder holding one tiny valid WAV named "s.wav" (the seeds use it), so scenes get past the
// "sounds" check to their events; any other name fails as .fileNotFound.
import Foundation
import Interlude
import InterludeScene

/// The scene folder, made once per process.
let sceneFolder: String = {
    let folder = "/dev/shm/interlude-fuzz-scene-\(ProcessInfo.processInfo.processIdentifier)"
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    // 44-byte header + 4 frames of mono 16-bit PCM at 8 kHz.
    var wav: [UInt8] = Array("RIFF".utf8) + [44, 0, 0, 0] + Array("WAVEfmt ".utf8) + [16, 0, 0, 0, 1, 0, 1, 0]
    wav += [0x40, 0x1F, 0, 0, 0x80, 0x3E, 0, 0, 2, 0, 16, 0] + Array("data".utf8) + [8, 0, 0, 0] + [UInt8](repeating: 0, count: 8)
    _ = FileManager.default.createFile(atPath: folder + "/s.wav", contents: Data(wav))
    atexit { try? FileManager.default.removeItem(atPath: sceneFolder) }
    return folder
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Data(bytes: data, count: size)
    do {
        let scene = try SceneParser.parse(data: bytes, sceneFolder: sceneFolder, fileName: "fuzz.json")
        precondition(scene.durationSeconds > 0, "accepted a scene with duration \(scene.durationSeconds)")
    } catch let error as InterludeError {
        _ = error.description
    } catch {
        preconditionFailure("SceneParser threw a non-Interlude error: \(error)")
    }
    return 0
}
