import Foundation

/// A WAV file from `parecord`, read as its left channel, and the tone sweep read off it:
/// assets/music/sweep.ogg is f(t) = 200 + 100 t Hz, so a frequency is a position in the track.
struct SweepRecording {
    let samples: [Float]
    let sampleRate: Int

    /// Reads 16-bit or float WAV. A recorder stopped by a dying server may leave the sizes in
    /// the header unwritten, so the data chunk runs to the end of the file.
    init(contentsOf url: URL) throws {
        let data = try Data(contentsOf: url)
        let bytes = [UInt8](data)
        func u32(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24 }
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        guard bytes.count >= 12, String(decoding: bytes[0..<4], as: UTF8.self) == "RIFF" else {
            throw TestFailure("\(url.path): not a WAV file (\(bytes.count) bytes)")
        }
        var offset = 12
        var channels = 0, rate = 0, bits = 0, format = 0
        while offset + 8 <= bytes.count {
            let id = String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self)
            let size = u32(offset + 4)
            let body = offset + 8
            if id == "fmt " {
                format = u16(body); channels = u16(body + 2); rate = u32(body + 4); bits = u16(body + 14)
                if format == 0xFFFE { format = u16(body + 24) }
            } else if id == "data" {
                let end = (size == 0 || size == 0xFFFF_FFFF || body + size > bytes.count) ? bytes.count : body + size
                let frameBytes = channels * bits / 8
                guard frameBytes > 0 else { throw TestFailure("\(url.path): no fmt chunk before data") }
                var left: [Float] = []
                left.reserveCapacity((end - body) / frameBytes)
                var at = body
                while at + frameBytes <= end {
                    if format == 3 && bits == 32 {
                        left.append(Float(bitPattern: UInt32(u32(at))))
                    } else if format == 1 && bits == 16 {
                        left.append(Float(Int16(bitPattern: UInt16(u16(at)))) / 32768)
                    } else {
                        throw TestFailure("\(url.path): format \(format), \(bits) bits is not read here")
                    }
                    at += frameBytes
                }
                samples = left
                sampleRate = rate
                return
            }
            offset = body + size + (size & 1)
        }
        throw TestFailure("\(url.path): no data chunk")
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

    /// Where in the sweep the audio that starts at `soundStart` begins, in seconds: the
    /// frequency over 50 ms from 10 ms in, mapped back to the start.
    func sweepPosition(atSoundStart soundStart: Int) -> Double? {
        let skip = sampleRate / 100, length = sampleRate / 20
        guard let frequency = frequency(from: soundStart + skip, count: length) else { return nil }
        let centre = Double(skip) + Double(length) / 2
        return (frequency - 200) / 100 - centre / Double(sampleRate)
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
