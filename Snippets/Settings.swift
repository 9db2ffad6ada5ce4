import Interlude

var configuration = SoundEngine.Configuration(output: .systemDefaultOrNull)
configuration.outputLatency = .low                     // 3 periods of 432 frames
configuration.updateTiming = .everyUpdateInterval      // a fixed 10 ms update, not one per mix
configuration.resampler = .bsinc12
configuration.resumePolicy = .honorShouldResume        // an end with shouldResume false stays silent
configuration.whenNamedDeviceDisappears = .followSystemDefault
let engine = try SoundEngine(configuration: configuration)

// A UI click: dropped during a call, never resumed after one.
let click = try engine.loadSound(path: "assets/sfx/click.wav")
try engine.playSystemSound(click)
engine.shutdown()
