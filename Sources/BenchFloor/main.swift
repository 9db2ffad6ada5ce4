// BenchFloor: the Swift floor of the peer scene (scenario 11). The same game loop as Interlude's
// player, in a program that imports Foundation and no audio library: its CPU and resident
// memory are what the language and its runtime cost before any audio, so the bench reports each
// player above its language's floor.
//   BenchFloor SECONDS EMITTERS MUSIC.ogg SAMPLES_OUT SOUND.wav...   (the peer scene's command line)
// Prints the peer harnesses' "key value" lines; it plays nothing, so voices_playing is 0.
import Foundation
import PeerLoop

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 5, let seconds = Double(arguments[0]), seconds > 0, let emitterCount = Int(arguments[1]),
      emitterCount > 0 else {
    FileHandle.standardError.write(Data("usage: BenchFloor SECONDS EMITTERS MUSIC.ogg SAMPLES_OUT SOUND.wav...\n".utf8))
    exit(2)
}
let startResidentKiB = ResidentMemory.currentKiB()
/// Where the loop puts each emitter, as a game keeps its objects' positions.
var positions = [(Float, Float, Float)](repeating: (0, 0, 0), count: emitterCount)
let figures = PeerLoop.run(tickCount: Int(seconds * 100), emitterCount: emitterCount, position: { index, tick in
    // bb_emitter_position (Sources/BenchBaseline) at 480 frames of 48 kHz per tick.
    let time = Float(tick) * 0.01
    let radius = 2 + Float(index % 40)
    let angle = 0.37 * Float(index) + (0.2 + 0.05 * Float(index % 17)) * time
    return (radius * cos(angle), 0.5 * Float(index % 3) - 0.5, radius * sin(angle))
}, move: { index, position in
    positions[index] = position
})
print(try figures.report(samplesPath: arguments[3], startResidentKiB: startResidentKiB, sampleRate: 0,
                         voicesPlaying: 0, isMusicPlaying: false))
