import Foundation
import Interlude
import InterludeScene
#if canImport(Glibc)
import Glibc
#endif

/// The live line `interlude play` shows on a terminal: the session state, the position in the
/// sound and a level bar. Nothing is drawn when standard output is not a terminal.
struct LevelMeter {
    let engine: SoundEngine
    let voice: VoiceHandle
    let sound: Sound
    private let isShown = isatty(STDOUT_FILENO) == 1

    init(engine: SoundEngine, voice: VoiceHandle, sound: Sound) {
        self.engine = engine
        self.voice = voice
        self.sound = sound
    }

    /// Redraws the line.
    func draw() {
        guard isShown else { return }
        let frame = engine.positionInFrames(of: voice) ?? 0
        let seconds = Double(frame) / Double(sound.format.sampleRate)
        let level = sound.peakLevel(aroundFrame: frame)
        let width = Int((level * 30).rounded())
        let bar = String(repeating: "|", count: width) + String(repeating: " ", count: 30 - width)
        let state = engine.sessionState.isActive ? "active" : "interrupted"
        FileHandle.standardOutput.write(Data("\r[\(bar)] \(String(format: "%6.2f", seconds)) s  session: \(state)   ".utf8))
    }

    /// Ends the line.
    func finish() {
        if isShown { print("") }
    }
}
