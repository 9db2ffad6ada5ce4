// JobControlProbe: launched by JobControlTests. Opens an engine on OpenAL Soft's null backend
// with job control handled, streams the sweep (the path is the only argument) as music, and
// prints every session event and the music position as JSON lines on standard output, flushed
// line by line, every 100 ms for the number of seconds given as the second argument.
import Foundation
import Interlude

let arguments = CommandLine.arguments
guard arguments.count == 3, let seconds = Double(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: JobControlProbe <track> <seconds>\n".utf8))
    exit(2)
}

enum Probe {
    /// One JSON line on standard output, written at once (FileHandle does not buffer).
    static func emit(_ fields: [String: Any]) {
        guard let data = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys]) else { return }
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }

    static func uptimeMilliseconds() -> Int {
        Int(ProcessInfo.processInfo.systemUptime * 1000)
    }
}

do {
    var configuration = SoundEngine.Configuration(output: .null)
    configuration.handlesJobControl = true
    configuration.mediaRole = nil
    let engine = try SoundEngine(configuration: configuration)
    engine.setEventHandler { event in
        var fields: [String: Any] = ["t": Probe.uptimeMilliseconds()]
        switch event {
        case .session(.began(let reason, _)): fields["event"] = "began"; fields["reason"] = reason.rawValue
        case .session(.ended(let shouldResume, let resumed, _)):
            fields["event"] = "ended"; fields["shouldResume"] = shouldResume; fields["music"] = resumed.music
        case .music(.suspended(let position)): fields["event"] = "musicSuspended"; fields["positionInFrames"] = position
        case .music(.resumed(let position)): fields["event"] = "musicResumed"; fields["positionInFrames"] = position
        default: fields["event"] = "\(event)"
        }
        Probe.emit(fields)
    }
    try engine.playMusic(path: arguments[1])
    Probe.emit(["event": "ready", "pid": Int(getpid()), "t": Probe.uptimeMilliseconds()])
    let ticks = Int(seconds * 10)
    for _ in 0..<ticks {
        Thread.sleep(forTimeInterval: 0.1)
        Probe.emit(["event": "position", "positionInFrames": engine.music().flatMap { engine.positionInFrames(of: $0) } ?? -1,
              "state": engine.sessionState.isActive ? "active" : "interrupted", "t": Probe.uptimeMilliseconds()])
    }
    engine.shutdown()
    exit(0)
} catch {
    FileHandle.standardError.write(Data("JobControlProbe: \(error)\n".utf8))
    exit(1)
}
