import Foundation
import Interlude

/// Every asset the generator makes, and the synthesis of the short ones. All run at 44.1 kHz.
enum AssetCatalog {
    static let sampleRate = 44_100
    private static let mono = AudioFormat(sampleRate: sampleRate, channelCount: 1)
    private static let stereo = AudioFormat(sampleRate: sampleRate, channelCount: 2)

    static let all: [Asset] = [
        Asset(
            relativePath: "sfx/beep.wav",
            description: "mono 16-bit, 0.25 s 880 Hz sine at 0.5 with 5 ms fades",
            format: mono, render: beep),
        Asset(
            relativePath: "sfx/click.wav",
            description: "mono 16-bit, 20 ms UI click (3 kHz ping plus noise, 3 ms decay)",
            format: mono, render: click),
        Asset(
            relativePath: "sfx/noise.wav",
            description: "mono 16-bit, 0.3 s white-noise burst at 0.5 (seeded LCG)",
            format: mono, render: noiseBurst),
        Asset(
            relativePath: "sfx/chime.wav",
            description: "mono 16-bit, pickup chime: E6 then B6, bell partials, about 0.6 s decay",
            format: mono, render: chime),
        Asset(
            relativePath: "sfx/footstep.wav",
            description: "mono 16-bit, 0.18 s footstep thud (110 to 55 Hz glide plus low-passed noise)",
            format: mono, render: footstep),
        Asset(
            relativePath: "sfx/tone440.wav",
            description: "mono 16-bit, 1 s 440 Hz sine at 0.5, exactly 440 cycles: loops seamlessly",
            format: mono, render: tone440),
        Asset(
            relativePath: "ambience/wind.ogg",
            description: "stereo Ogg Vorbis, 6 s seamless loop of gusting filtered noise",
            format: stereo, render: wind),
        Asset(
            relativePath: "ambience/fire.wav",
            description: "mono 16-bit, 2 s seamless loop of fire crackle over a low rumble",
            format: mono, render: fire),
        Asset(
            relativePath: "music/theme.ogg",
            description: "stereo Ogg Vorbis, 40 s theme at 120 bpm in sections A B A' C, -6 dBFS peak",
            format: stereo, render: { ThemeComposer(sampleRate: sampleRate).render() }),
        Asset(
            relativePath: "music/sweep.ogg",
            description: "stereo Ogg Vorbis, 20 s linear sweep at 0.5: f(t) = 200 + 100 t Hz (200 to 2200 Hz)",
            format: stereo, render: sweep),
    ] + loops + stems

    /// The three stems of an adaptive-music loop (``ThemeComposer/renderStems()``).
    private static let stems: [Asset] = ["rhythm", "pads", "lead"].map { name in
        Asset(relativePath: "music/stems/\(name).ogg",
              description: "stereo Ogg Vorbis, stem \"\(name)\" of an 8 s loop at 120 bpm (4 bars); the three stems share one length",
              format: stereo) {
            ThemeComposer(sampleRate: sampleRate).renderStems().first { $0.name == name }!.samples
        }
    }

    /// The same 1 s loop with 200 ms margins (its own last 200 ms before it, its first 200 ms
    /// after it), as MusicAndLoopPoints.md says to export a loop: frames 9 600..<57 600 at 48 kHz.
    /// The Vorbis and Opus files carry the region as LOOPSTART and LOOPLENGTH tags; MP3 cannot.
    static let loopRegion = 9_600..<57_600
    private static let loopTags = [("LOOPSTART", "\(loopRegion.lowerBound)"), ("LOOPLENGTH", "\(loopRegion.count)")]
    private static let loops: [Asset] = [
        Asset(relativePath: "music/loop.ogg",
              description: "mono Ogg Vorbis at 48 kHz, 1 s A major chord loop with 200 ms margins, tagged LOOPSTART=9600 LOOPLENGTH=48000",
              format: AudioFormat(sampleRate: 48_000, channelCount: 1), tags: loopTags, render: loop),
        Asset(relativePath: "music/loop.opus",
              description: "mono Ogg Opus, the same loop, tagged LOOPSTART=9600 LOOPLENGTH=48000",
              format: AudioFormat(sampleRate: 48_000, channelCount: 1), tags: loopTags, render: loop),
        Asset(relativePath: "music/loop.mp3",
              description: "mono MP3 at 48 kHz, 128 kbit/s, the same loop, untagged (its region is given in the API)",
              format: AudioFormat(sampleRate: 48_000, channelCount: 1), render: loop),
    ]

    private static func seconds(_ frame: Int) -> Double {
        Double(frame) / Double(sampleRate)
    }

    private static func beep() -> [Float] {
        var samples = Signal.sine(frequencyHz: 880, frameCount: sampleRate / 4, amplitude: 0.5, sampleRate: sampleRate)
        Signal.fade(&samples, inSeconds: 0.005, outSeconds: 0.005, sampleRate: sampleRate)
        return samples
    }

    private static func click() -> [Float] {
        let frameCount = Signal.frameCount(durationSeconds: 0.02, sampleRate: sampleRate)
        var noise = SeededNoise(seed: 2)
        let ping = Signal.sine(frequencyHz: 3000, frameCount: frameCount, amplitude: 0.6, sampleRate: sampleRate)
        var samples = zip(ping, noise.samples(frameCount: frameCount)).map { $0 + 0.3 * $1 }
        Signal.shape(&samples, sampleRate: sampleRate) { exp(-$0 / 0.003) }
        Signal.fade(&samples, inSeconds: 0, outSeconds: 0.002, sampleRate: sampleRate)
        return Signal.normalized(samples, peak: 0.8)
    }

    private static func noiseBurst() -> [Float] {
        var noise = SeededNoise(seed: 1)
        var samples = noise.samples(frameCount: Signal.frameCount(durationSeconds: 0.3, sampleRate: sampleRate))
            .map { $0 * 0.5 }
        Signal.fade(&samples, inSeconds: 0.005, outSeconds: 0.05, sampleRate: sampleRate)
        return samples
    }

    /// Two struck bell notes; the partial ratios are those of a bar-like bell (inharmonic) and
    /// the higher partials die faster, as in a real bell.
    private static func chime() -> [Float] {
        let partials: [(ratio: Double, amplitude: Double, decaySeconds: Double)] = [
            (1, 1, 0.15), (2.756, 0.4, 0.07), (5.404, 0.15, 0.035),
        ]
        let notes: [(startSeconds: Double, frequencyHz: Double)] = [(0, 1318.51), (0.08, 1975.53)]
        var samples = [Float](repeating: 0, count: Signal.frameCount(durationSeconds: 0.8, sampleRate: sampleRate))
        for note in notes {
            for frame in samples.indices where seconds(frame) >= note.startSeconds {
                let time = seconds(frame) - note.startSeconds
                let attack = min(time / 0.002, 1)
                samples[frame] += Float(partials.reduce(0) { sum, partial in
                    sum + partial.amplitude * exp(-time / partial.decaySeconds)
                        * sin(2 * Double.pi * note.frequencyHz * partial.ratio * time)
                } * attack)
            }
        }
        Signal.fade(&samples, inSeconds: 0, outSeconds: 0.02, sampleRate: sampleRate)
        return Signal.normalized(samples, peak: 0.7)
    }

    private static func footstep() -> [Float] {
        let frameCount = Signal.frameCount(durationSeconds: 0.18, sampleRate: sampleRate)
        var phase = 0.0
        let thud = (0..<frameCount).map { frame -> Float in
            let time = seconds(frame)
            phase += 2 * Double.pi * (55 + 55 * exp(-time / 0.03)) / Double(sampleRate)
            return Float(sin(phase) * exp(-time / 0.04))
        }
        var noise = SeededNoise(seed: 3)
        var scuff = Signal.lowpass(noise.samples(frameCount: frameCount), cutoffHz: 800, sampleRate: sampleRate)
        Signal.shape(&scuff, sampleRate: sampleRate) { 1.5 * exp(-$0 / 0.02) }
        var samples = zip(thud, scuff).map { $0 + $1 }
        Signal.fade(&samples, inSeconds: 0.001, outSeconds: 0.01, sampleRate: sampleRate)
        return Signal.normalized(samples, peak: 0.8)
    }

    private static func tone440() -> [Float] {
        Signal.sine(frequencyHz: 440, frameCount: sampleRate, amplitude: 0.5, sampleRate: sampleRate)
    }

    /// Noise through a low-pass whose cutoff and level follow slow gusts. The gusts repeat every
    /// 6 s; the noise is made seamless by crossfading a 1 s tail into the start.
    private static func wind() -> [Float] {
        let loopSeconds = 6.0
        let loopFrameCount = Signal.frameCount(durationSeconds: loopSeconds, sampleRate: sampleRate)
        let tailFrameCount = sampleRate
        func channel(seed: UInt32, gustPhase: Double) -> [Float] {
            func gust(_ time: Double) -> Double {
                0.5 + 0.3 * sin(2 * Double.pi * time / loopSeconds + gustPhase)
                    + 0.2 * sin(2 * Double.pi * 3 * time / loopSeconds + 2 * gustPhase)
            }
            var noise = SeededNoise(seed: seed)
            let white = noise.samples(frameCount: loopFrameCount + tailFrameCount)
            let once = Signal.lowpass(white, sampleRate: sampleRate) { 150 + 900 * gust($0) }
            var twice = Signal.lowpass(once, sampleRate: sampleRate) { 150 + 900 * gust($0) }
            Signal.shape(&twice, sampleRate: sampleRate) { 0.3 + gust($0) }
            return Signal.seamlessLoop(twice, loopFrameCount: loopFrameCount)
        }
        let stereo = Signal.interleave(left: channel(seed: 10, gustPhase: 0), right: channel(seed: 11, gustPhase: 0.7))
        return Signal.normalized(stereo, peak: 0.5)
    }

    /// Low rumble plus sparse crackles (short, bright noise pops at random times and levels),
    /// made seamless by crossfading a 0.25 s tail into the start.
    private static func fire() -> [Float] {
        let loopFrameCount = 2 * sampleRate
        let frameCount = loopFrameCount + sampleRate / 4
        var noise = SeededNoise(seed: 20)
        var samples = Signal.lowpass(noise.samples(frameCount: frameCount), cutoffHz: 300, sampleRate: sampleRate)
            .map { $0 * 1.5 }
        let crackleCount = 50
        for _ in 0..<crackleCount {
            let start = Int(noise.nextUnit() * Double(frameCount))
            let level = Float(0.2 + 0.8 * noise.nextUnit() * noise.nextUnit())
            let decaySeconds = 0.0005 + 0.002 * noise.nextUnit()
            var previous: Float = 0
            for frame in start..<min(start + sampleRate / 50, frameCount) {
                let white = noise.nextSample()
                // The difference of successive noise samples tilts it bright: a snap, not a hiss.
                samples[frame] += level * (white - previous) * Float(exp(-seconds(frame - start) / decaySeconds))
                previous = white
            }
        }
        return Signal.normalized(Signal.seamlessLoop(samples, loopFrameCount: loopFrameCount), peak: 0.8)
    }

    /// Phase is the integral of f(t) = 200 + 100 t: 200 t + 50 t^2 cycles, reduced to a
    /// fraction before scaling so it stays exact at 20 s.
    /// 440, 550 and 660 Hz, each a whole number of cycles a second, so the signal repeats every
    /// second: started 200 ms before a period, the file's frames 9 600..<57 600 are one period.
    private static func loop() -> [Float] {
        let rate = 48_000, margin = loopRegion.lowerBound
        return (0..<(loopRegion.upperBound + margin)).map { frame in
            let time = (frame + rate - margin) % rate
            return [440, 550, 660].reduce(Float(0)) { sum, frequency in
                sum + 0.2 * Float(sin(2 * Double.pi * Double(time * frequency % rate) / Double(rate)))
            }
        }
    }

    private static func sweep() -> [Float] {
        let channel = (0..<20 * sampleRate).map { frame -> Float in
            let time = seconds(frame)
            let cycles = 200 * time + 50 * time * time
            return 0.5 * Float(sin(2 * Double.pi * (cycles - cycles.rounded(.down))))
        }
        return Signal.interleave(left: channel, right: channel)
    }
}
