import Foundation

/// A WAV file from `parecord`, read as its left channel, and the tone sweep read off it:
/// assets/music/sweep.ogg is f(t) = 200 + 100 t Hz, so a frequency is a position in the track.
struct SweepRecording {
    let samples: [Float]
    let sampleRate: Int

    /// Reads the recording's left channel (16-bit or float; see ``WAVFileContents``).
    init(contentsOf url: URL) throws {
        let wav = try WAVFileContents(contentsOf: url)
        samples = wav.channel(0).map { Float($0) }
        sampleRate = wav.sampleRate
    }

    /// The first sample louder than `threshold` at or after `start`.
    func firstSound(after start: Int = 0, threshold: Float = 0.05) -> Int? {
        guard start < samples.count else { return nil }
        return samples[start...].firstIndex { abs($0) > threshold }
    }

    /// RMS of `count` samples from `start`.
    func rms(from start: Int, count: Int) -> Float {
        let window = samples[max(0, start)..<min(samples.count, start + count)]
        guard !window.isEmpty else { return 0 }
        return (window.reduce(0) { $0 + $1 * $1 } / Float(window.count)).squareRoot()
    }

    /// The mean frequency over `count` samples from `start`, from its zero crossings (linearly
    /// interpolated). For a linear sweep that is the frequency at the window's centre.
    func frequency(from start: Int, count: Int) -> Double? {
        var crossings: [Double] = []
        let end = min(samples.count, start + count)
        guard start >= 0, end - start > 2 else { return nil }
        for index in (start + 1)..<end {
            let previous = samples[index - 1], current = samples[index]
            if (previous < 0 && current >= 0) || (previous >= 0 && current < 0) {
                crossings.append(Double(index - 1) + Double(previous / (previous - current)))
            }
        }
        guard crossings.count >= 4, let first = crossings.first, let last = crossings.last, last > first else { return nil }
        return Double(crossings.count - 1) / 2 / ((last - first) / Double(sampleRate))
    }

    /// The sweep's position, in seconds of track, at sample `index`: the frequency over the
    /// 50 ms centred there.
    func sweepPosition(at index: Int) -> Double? {
        let length = sampleRate / 20
        return frequency(from: index - length / 2, count: length).map { ($0 - 200) / 100 }
    }

    /// The first silence of at least `minimumSeconds` after sound, at or after `start`: its
    /// first silent sample, and the first sound after it (nil `end` when none follows).
    func silence(after start: Int = 0, minimumSeconds: Double, threshold: Float = 0.05) -> (start: Int, end: Int?)? {
        let minimumCount = Int(minimumSeconds * Double(sampleRate))
        var lastSound: Int?
        for index in max(0, start)..<samples.count {
            if abs(samples[index]) > threshold {
                if let last = lastSound, index - last > minimumCount { return (last + 1, index) }
                lastSound = index
            }
        }
        guard let last = lastSound, samples.count - last > minimumCount else { return nil }
        return (last + 1, nil)
    }

    /// Where in the sweep the audio that starts at `soundStart` begins, in seconds: the
    /// frequency over 50 ms from 10 ms in, mapped back to the start.
    func sweepPosition(atSoundStart soundStart: Int) -> Double? {
        let skip = sampleRate / 100, length = sampleRate / 20
        guard let frequency = frequency(from: soundStart + skip, count: length) else { return nil }
        let centre = Double(skip) + Double(length) / 2
        return (frequency - 200) / 100 - centre / Double(sampleRate)
    }

    /// Where in the sweep the audio heard from `soundStart` begins, in seconds, read past the
    /// fragments it may begin with: a stretch shorter than 60 ms that a dropout of under 50 ms
    /// ends (a backend restarting its stream, as OpenAL Soft 1.24's native PipeWire backend
    /// does 13 ms into a resume) counts as track played, and the sweep is read after it. A
    /// frequency read across the dropout would be hundreds of hertz off.
    func sweepPosition(pastFragmentsFrom soundStart: Int, threshold: Float = 0.05) -> Double? {
        let fragmentMaximum = sampleRate * 60 / 1000, dropoutMaximum = sampleRate * 50 / 1000
        // Stretches of sound that dropouts of 2 ms or more separate.
        let stretches = soundStretches(minimumSilenceSeconds: 0.002, threshold: threshold).filter { $0.lowerBound >= soundStart }
        guard var index = stretches.indices.first else { return nil }
        var fragmentsFrames = 0
        while index < 3, index + 1 < stretches.count, stretches[index].count < fragmentMaximum,
              stretches[index + 1].lowerBound - stretches[index].upperBound < dropoutMaximum {
            fragmentsFrames += stretches[index].count
            index += 1
        }
        return sweepPosition(atSoundStart: stretches[index].lowerBound).map { $0 - Double(fragmentsFrames) / Double(sampleRate) }
    }

    /// Where in the sweep the audio that ends at `soundEnd` stops, in seconds: the frequency
    /// over the 50 ms that end 10 ms before it, carried forward to the end.
    func sweepPosition(atSoundEnd soundEnd: Int) -> Double? {
        let skip = sampleRate / 100, length = sampleRate / 20
        guard let frequency = frequency(from: soundEnd - skip - length, count: length) else { return nil }
        let centre = Double(skip) + Double(length) / 2
        return (frequency - 200) / 100 + centre / Double(sampleRate)
    }

    /// The stretches of sound, louder than `threshold`, that silences of at least
    /// `minimumSilenceSeconds` separate.
    func soundStretches(minimumSilenceSeconds: Double, threshold: Float = 0.05) -> [Range<Int>] {
        let minimumCount = Int(minimumSilenceSeconds * Double(sampleRate))
        var stretches: [Range<Int>] = []
        var start: Int?, last = 0
        for (index, sample) in samples.enumerated() where abs(sample) > threshold {
            if let first = start, index - last > minimumCount {
                stretches.append(first..<(last + 1))
                start = index
            } else if start == nil {
                start = index
            }
            last = index
        }
        if let first = start { stretches.append(first..<(last + 1)) }
        return stretches
    }

    /// The sweep position read at several points, for a failure message.
    func describe(expectedStartSeconds: Double, soundStart: Int) -> String {
        let step = sampleRate / 20
        let points = stride(from: soundStart, to: min(samples.count - step, soundStart + sampleRate), by: step).map { start -> String in
            let frequency = frequency(from: start, count: step) ?? 0
            let seconds = Double(start - soundStart + step / 2) / Double(sampleRate)
            return String(format: "+%.3fs: %.1f Hz (track %.3f s, expected %.3f s)", seconds, frequency, (frequency - 200) / 100, expectedStartSeconds + seconds)
        }
        return "\(samples.count) samples at \(sampleRate) Hz, sound from \(soundStart): " + points.joined(separator: "; ")
    }
}
