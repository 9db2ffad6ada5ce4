import Foundation

/// The 40 s soundtrack: 120 bpm in 4/4, four sections of five bars (A B A' C), each a four-bar
/// progression in C major plus a bar that resolves or turns. Bass, chord pads and melody are
/// additive sines under envelopes; hi-hats enter in B and a kick in A' and C, so the sections
/// are easy to tell apart by ear.
struct ThemeComposer {
    /// Output frames per second.
    let sampleRate: Int

    private typealias Chord = (bassPitch: Int, padPitches: [Int])
    private typealias Note = (pitch: Int?, beats: Double)
    private typealias Section = (chords: [Chord], melody: [[Note]], hasHats: Bool, hasKick: Bool, drivingBass: Bool)

    /// A voice's sound: sine partials (ratio to the fundamental, amplitude) under an envelope
    /// of linear attack, exponential decay while held, and linear release.
    private struct Timbre {
        var partials: [(ratio: Double, amplitude: Double)]
        var attackSeconds: Double
        var decayPerSecond: Double
        var releaseSeconds: Double
        /// Vibrato depth as a fraction of the frequency, at 5 Hz.
        var vibratoDepth: Double = 0
    }

    private static let secondsPerBeat = 0.5
    private static let beatsPerBar = 4.0
    private static let durationSeconds = 40.0
    private static let peak = Float(pow(10, -6.0 / 20))

    private static let bass = Timbre(
        partials: [(1, 1), (2, 0.25), (3, 0.08)], attackSeconds: 0.01, decayPerSecond: 1.5, releaseSeconds: 0.08)
    private static let pad = Timbre(
        partials: [(1, 1), (2, 0.3), (3, 0.12)], attackSeconds: 0.4, decayPerSecond: 0.1, releaseSeconds: 0.6)
    private static let lead = Timbre(
        partials: [(1, 1), (2, 0.35), (3, 0.15), (4, 0.05)], attackSeconds: 0.015, decayPerSecond: 1.2,
        releaseSeconds: 0.15, vibratoDepth: 0.004)

    private static let c: Chord = (36, [60, 64, 67])
    private static let aMinor: Chord = (33, [57, 60, 64])
    private static let f: Chord = (41, [57, 60, 65])
    private static let g: Chord = (43, [55, 59, 62])
    private static let eMinor: Chord = (40, [55, 59, 64])

    private static let sections: [Section] = [
        (  // A: the tune.
            [c, aMinor, f, g, c],
            [
                [(76, 1), (79, 1), (84, 1.5), (83, 0.5)], [(81, 1.5), (79, 0.5), (76, 2)],
                [(77, 1), (81, 1), (84, 1), (81, 1)], [(79, 1.5), (77, 0.5), (74, 1), (71, 1)],
                [(72, 3), (nil, 1)],
            ],
            false, false, false
        ),
        (  // B: the relative minor, lower and longer notes, ending on the dominant.
            [aMinor, eMinor, f, c, g],
            [
                [(84, 2), (83, 1), (81, 1)], [(79, 2), (76, 2)],
                [(81, 1), (79, 1), (77, 1), (81, 1)], [(79, 3), (76, 1)],
                [(74, 1), (79, 1), (83, 2)],
            ],
            true, false, false
        ),
        (  // A': the tune again, climbing at the end, with a kick.
            [c, aMinor, f, g, c],
            [
                [(76, 1), (79, 1), (84, 1.5), (83, 0.5)], [(81, 1.5), (79, 0.5), (76, 2)],
                [(77, 0.5), (79, 0.5), (81, 1), (84, 1), (86, 1)], [(83, 1.5), (81, 0.5), (79, 1), (74, 1)],
                [(84, 2), (79, 1), (76, 1)],
            ],
            true, true, false
        ),
        (  // C: the climax over driving eighths, resolving to a held C.
            [f, g, eMinor, aMinor, c],
            [
                [(84, 1.5), (81, 0.5), (84, 1), (86, 1)], [(86, 1.5), (83, 0.5), (79, 1), (83, 1)],
                [(88, 2), (86, 1), (83, 1)], [(84, 1.5), (83, 0.5), (81, 1), (76, 1)],
                [(84, 4)],
            ],
            true, true, true
        ),
    ]

    /// Renders the whole piece as interleaved stereo, faded out over the last 1.5 s and
    /// normalized to -6 dBFS peak.
    func render() -> [Float] {
        let frameCount = Signal.frameCount(durationSeconds: Self.durationSeconds, sampleRate: sampleRate)
        var mix = (left: [Float](repeating: 0, count: frameCount), right: [Float](repeating: 0, count: frameCount))
        var noise = SeededNoise(seed: 30)
        let barSeconds = Self.beatsPerBar * Self.secondsPerBeat
        for (sectionIndex, section) in Self.sections.enumerated() {
            for (barIndex, chord) in section.chords.enumerated() {
                let barStart = Double(sectionIndex * section.chords.count + barIndex) * barSeconds
                let isLastBar = sectionIndex == Self.sections.count - 1 && barIndex == section.chords.count - 1
                addPad(chord, startSeconds: barStart, durationSeconds: barSeconds, into: &mix)
                addBass(chord, startSeconds: barStart, driving: section.drivingBass, held: isLastBar, into: &mix)
                addMelody(section.melody[barIndex], startSeconds: barStart, into: &mix)
                if isLastBar { continue }
                for beat in 0..<Int(Self.beatsPerBar) {
                    let beatStart = barStart + Double(beat) * Self.secondsPerBeat
                    if section.hasHats {
                        addHat(startSeconds: beatStart + Self.secondsPerBeat / 2, pan: beat % 2 == 0 ? -0.3 : 0.3,
                               noise: &noise, into: &mix)
                    }
                    if section.hasKick && beat % 2 == 0 {
                        addKick(startSeconds: beatStart, into: &mix)
                    }
                }
            }
        }
        Signal.fade(&mix.left, inSeconds: 0, outSeconds: 1.5, sampleRate: sampleRate)
        Signal.fade(&mix.right, inSeconds: 0, outSeconds: 1.5, sampleRate: sampleRate)
        return Signal.normalized(Signal.interleave(left: mix.left, right: mix.right), peak: Self.peak)
    }

    /// The stems of an 8 s loop (120 bpm, four bars of section A's progression, A' drums), for
    /// adaptive music: "rhythm" (bass, kick and hats), "pads" and "lead" (the tune). Each is
    /// interleaved stereo of the same length; what rings past the loop's end is folded onto
    /// its start, so each loops seamlessly, and all three are scaled alike so that their sum
    /// peaks at -6 dBFS.
    func renderStems() -> [(name: String, samples: [Float])] {
        let section = Self.sections[2]
        let barSeconds = Self.beatsPerBar * Self.secondsPerBeat
        let loopFrames = Signal.frameCount(durationSeconds: 4 * barSeconds, sampleRate: sampleRate)
        let renderedFrames = loopFrames + sampleRate
        func silence() -> (left: [Float], right: [Float]) {
            ([Float](repeating: 0, count: renderedFrames), [Float](repeating: 0, count: renderedFrames))
        }
        var rhythm = silence(), pads = silence(), lead = silence()
        var noise = SeededNoise(seed: 31)
        for (barIndex, chord) in section.chords.prefix(4).enumerated() {
            let barStart = Double(barIndex) * barSeconds
            addPad(chord, startSeconds: barStart, durationSeconds: barSeconds, into: &pads)
            addBass(chord, startSeconds: barStart, driving: false, held: false, into: &rhythm)
            addMelody(Self.sections[0].melody[barIndex], startSeconds: barStart, into: &lead)
            for beat in 0..<Int(Self.beatsPerBar) {
                let beatStart = barStart + Double(beat) * Self.secondsPerBeat
                addHat(startSeconds: beatStart + Self.secondsPerBeat / 2, pan: beat % 2 == 0 ? -0.3 : 0.3, noise: &noise, into: &rhythm)
                if beat % 2 == 0 { addKick(startSeconds: beatStart, into: &rhythm) }
            }
        }
        let stems = [("rhythm", rhythm), ("pads", pads), ("lead", lead)].map { name, mix in
            (name, Signal.interleave(left: Self.folded(mix.left, loopFrames), right: Self.folded(mix.right, loopFrames)))
        }
        var sum = [Float](repeating: 0, count: 2 * loopFrames)
        for (_, samples) in stems { for index in sum.indices { sum[index] += samples[index] } }
        let scale = Self.peak / max(sum.map(abs).max() ?? 1, 1e-9)
        return stems.map { ($0.0, $0.1.map { $0 * scale }) }
    }

    /// The first `loopFrames` of `samples` with the rest added back onto the start.
    private static func folded(_ samples: [Float], _ loopFrames: Int) -> [Float] {
        var loop = Array(samples[0..<loopFrames])
        for index in loopFrames..<samples.count { loop[index - loopFrames] += samples[index] }
        return loop
    }

    /// Each chord tone twice, detuned apart and panned apart, for a wide, slowly beating pad.
    private func addPad(_ chord: Chord, startSeconds: Double, durationSeconds: Double,
                        into mix: inout (left: [Float], right: [Float])) {
        for pitch in chord.padPitches {
            for (detuneRatio, pan) in [(1.003, -0.6), (0.997, 0.6)] {
                addNote(pitch: pitch, startSeconds: startSeconds, durationSeconds: durationSeconds,
                        timbre: Self.pad, gain: 0.08, pan: pan, detuneRatio: detuneRatio, into: &mix)
            }
        }
    }

    /// Root, root, fifth, octave, fifth; or root and octave eighths when driving; or one held root.
    private func addBass(_ chord: Chord, startSeconds: Double, driving: Bool, held: Bool,
                         into mix: inout (left: [Float], right: [Float])) {
        let pattern: [(beat: Double, interval: Int, beats: Double)] =
            if held {
                [(0, 0, 4)]
            } else if driving {
                [0, 0, 12, 0, 7, 0, 12, 7].enumerated().map { (Double($0.offset) / 2, $0.element, 0.5) }
            } else {
                [(0, 0, 1), (1, 0, 0.5), (1.5, 7, 0.5), (2, 12, 1), (3, 7, 1)]
            }
        for step in pattern {
            addNote(pitch: chord.bassPitch + step.interval, startSeconds: startSeconds + step.beat * Self.secondsPerBeat,
                    durationSeconds: step.beats * Self.secondsPerBeat, timbre: Self.bass, gain: 0.35, pan: 0, into: &mix)
        }
    }

    private func addMelody(_ notes: [Note], startSeconds: Double, into mix: inout (left: [Float], right: [Float])) {
        precondition(notes.reduce(0) { $0 + $1.beats } == Self.beatsPerBar, "a melody bar must fill the bar")
        var beat = 0.0
        for note in notes {
            if let pitch = note.pitch {
                addNote(pitch: pitch, startSeconds: startSeconds + beat * Self.secondsPerBeat,
                        durationSeconds: note.beats * Self.secondsPerBeat, timbre: Self.lead, gain: 0.25, pan: 0.2,
                        into: &mix)
            }
            beat += note.beats
        }
    }

    /// Renders one note of `timbre` into the mix, panned with equal power (-1 left, 1 right).
    private func addNote(pitch: Int, startSeconds: Double, durationSeconds: Double, timbre: Timbre, gain: Double,
                         pan: Double, detuneRatio: Double = 1, into mix: inout (left: [Float], right: [Float])) {
        let frequencyHz = 440 * pow(2, Double(pitch - 69) / 12) * detuneRatio
        let vibratoRateHz = 5.0
        // Phase of a frequency f (1 + depth sin(2 pi rate t)), integrated in closed form.
        let vibratoCycles = frequencyHz * timbre.vibratoDepth / (2 * Double.pi * vibratoRateHz)
        let panAngle = (pan + 1) * Double.pi / 4
        let firstFrame = Signal.frameCount(durationSeconds: startSeconds, sampleRate: sampleRate)
        let soundingFrameCount = Signal.frameCount(
            durationSeconds: durationSeconds + timbre.releaseSeconds, sampleRate: sampleRate)
        for frame in firstFrame..<min(firstFrame + soundingFrameCount, mix.left.count) {
            let time = Double(frame - firstFrame) / Double(sampleRate)
            let cycles = frequencyHz * time + vibratoCycles * (1 - cos(2 * Double.pi * vibratoRateHz * time))
            let release = time > durationSeconds ? 1 - (time - durationSeconds) / timbre.releaseSeconds : 1
            let envelope = min(time / timbre.attackSeconds, 1) * exp(-timbre.decayPerSecond * time) * release
            let value = gain * envelope * timbre.partials.reduce(0) { sum, partial in
                sum + partial.amplitude * sin(2 * Double.pi * partial.ratio * cycles)
            }
            mix.left[frame] += Float(value * cos(panAngle))
            mix.right[frame] += Float(value * sin(panAngle))
        }
    }

    /// A closed hi-hat: bright noise (differenced) with a 30 ms decay.
    private func addHat(startSeconds: Double, pan: Double, noise: inout SeededNoise,
                        into mix: inout (left: [Float], right: [Float])) {
        let firstFrame = Signal.frameCount(durationSeconds: startSeconds, sampleRate: sampleRate)
        let panAngle = (pan + 1) * Double.pi / 4
        var previous: Float = 0
        for frame in firstFrame..<min(firstFrame + sampleRate / 8, mix.left.count) {
            let white = noise.nextSample()
            let value = 0.06 * Double(white - previous) * exp(-Double(frame - firstFrame) / Double(sampleRate) / 0.03)
            previous = white
            mix.left[frame] += Float(value * cos(panAngle))
            mix.right[frame] += Float(value * sin(panAngle))
        }
    }

    /// A soft kick: a sine gliding from 100 Hz to 45 Hz with a 150 ms decay, centred.
    private func addKick(startSeconds: Double, into mix: inout (left: [Float], right: [Float])) {
        let firstFrame = Signal.frameCount(durationSeconds: startSeconds, sampleRate: sampleRate)
        var phase = 0.0
        for frame in firstFrame..<min(firstFrame + sampleRate / 2, mix.left.count) {
            let time = Double(frame - firstFrame) / Double(sampleRate)
            phase += 2 * Double.pi * (45 + 55 * exp(-time / 0.04)) / Double(sampleRate)
            let value = Float(0.4 * sin(phase) * exp(-time / 0.15) * min(time / 0.002, 1) * sqrt(0.5))
            mix.left[frame] += value
            mix.right[frame] += value
        }
    }
}
