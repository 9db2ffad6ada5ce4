import Interlude
import InterludeScene

let scene = try SceneParser.parse(fileAt: "examples/scenes/call.json")   // throws InterludeError for a bad scene
var samples: [Float] = []                                                // interleaved, scene.channelCount per frame
let result = try SceneRenderer(scene: scene, sceneName: "call.json").render { block in
    samples.append(contentsOf: block)
}
print(samples.count == scene.frameCount * scene.channelCount)            // true
print(result.logLines.count, result.sessionEvents.count)                 // the --log lines; (frame, SessionEvent) pairs
