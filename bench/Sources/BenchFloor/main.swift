// BenchFloor: the Swift floor of the peer scene (scenario 11). The same game loop as Interlude's
// player, in a program that imports Foundation and no audio library: its CPU and resident
// memory are what the language and its runtime cost before any audio, so the bench reports each
// player above its language's floor.
//   BenchFloor SECONDS EMITTERS MUSIC.ogg SAMPLES_OUT SOUND.wav...   (the peer scene's command line)
// Prints the peer harnesses' "key value" lines; it plays nothing, so voices_playing is 0.
import Foundation
import PeerLoop

guard let scene = PeerSceneArguments(Array(CommandLine.arguments.dropFirst())) else {
    FileHandle.standardError.write(Data(PeerSceneArguments.usage("BenchFloor").utf8))
    exit(2)
}
let startResidentKiB = ResidentMemory.currentKiB()
/// Where the loop puts each emitter, as a game keeps its objects' positions.
var positions = [(Float, Float, Float)](repeating: (0, 0, 0), count: scene.emitterCount)
let figures = PeerLoop.run(tickCount: scene.tickCount, emitterCount: scene.emitterCount,
                           position: PeerSceneArguments.emitterPosition, move: { index, position in
    positions[index] = position
})
print(try figures.report(samplesPath: scene.samplesPath, startResidentKiB: startResidentKiB, sampleRate: 0,
                         voicesPlaying: 0, isMusicPlaying: false))
