/// A track's beat grid: where its beats and bars fall, in its own frames. Beat k (k >= 0) lies
/// on frame `round(sampleRate * (firstBeatSeconds + 60 k / bpm))`, and is beat `k mod
/// beatsPerBar + 1` of bar `k / beatsPerBar + 1`: the music's own time, which stands still
/// while the track is paused or interrupted.
public struct MusicTempo: Sendable, Hashable, Codable {
    /// Beats per minute, > 0.
    public var bpm: Double
    /// Beats in a bar, >= 1.
    public var beatsPerBar: Int
    /// Where beat 1 of bar 1 falls, in seconds into the track, in [0, the track's length).
    public var firstBeatSeconds: Double

    /// A grid of `bpm` beats a minute, `beatsPerBar` to the bar, beat 1 at `firstBeatSeconds`.
    public init(bpm: Double, beatsPerBar: Int = 4, firstBeatSeconds: Double = 0) {
        self.bpm = bpm
        self.beatsPerBar = beatsPerBar
        self.firstBeatSeconds = firstBeatSeconds
    }

    /// The track frame beat `beat` (from 0) lies on, at `sampleRate`.
    public func frame(ofBeat beat: Int, sampleRate: Int) -> Int {
        Int((Double(sampleRate) * (firstBeatSeconds + 60 * Double(beat) / bpm)).rounded())
    }

    /// The last beat at or before `frame`, counted from 0; nil before the first beat.
    public func beat(atFrame frame: Int, sampleRate: Int) -> Int? {
        guard frame >= self.frame(ofBeat: 0, sampleRate: sampleRate) else { return nil }
        let seconds = Double(frame) / Double(sampleRate) - firstBeatSeconds
        var beat = max(0, Int((seconds * bpm / 60).rounded(.down)))
        // The grid is rounded to frames: step to the beat whose frame is the last at or before.
        while self.frame(ofBeat: beat + 1, sampleRate: sampleRate) <= frame { beat += 1 }
        while beat > 0 && self.frame(ofBeat: beat, sampleRate: sampleRate) > frame { beat -= 1 }
        return beat
    }

    /// The bar and beat (both from 1) at `frame`; nil before the first beat.
    public func position(atFrame frame: Int, sampleRate: Int) -> MusicPosition? {
        beat(atFrame: frame, sampleRate: sampleRate).map {
            MusicPosition(bar: $0 / beatsPerBar + 1, beat: $0 % beatsPerBar + 1, frame: frame)
        }
    }

    /// Checks the grid against a track of `frameCount` frames at `sampleRate`. `call` names the
    /// track in the error.
    func validate(frameCount: Int, sampleRate: Int, in call: @autoclosure () -> String) throws {
        guard bpm.isFinite, bpm > 0 else {
            throw InterludeError(.invalidArgument, "\(call()): bpm must be a finite number > 0, got \(bpm)")
        }
        guard beatsPerBar >= 1 else {
            throw InterludeError(.invalidArgument, "\(call()): beatsPerBar must be an integer >= 1, got \(beatsPerBar)")
        }
        let lengthSeconds = Double(frameCount) / Double(sampleRate)
        guard firstBeatSeconds.isFinite, firstBeatSeconds >= 0, firstBeatSeconds < lengthSeconds else {
            throw InterludeError(.invalidArgument,
                                 "\(call()): firstBeat must be in [0, \(lengthSeconds)) s (the track's length), got \(firstBeatSeconds)")
        }
    }
}

/// Where a track stands in its music's time: bar and beat from 1, and its frame.
public struct MusicPosition: Sendable, Hashable, CustomStringConvertible {
    /// The bar, from 1.
    public let bar: Int
    /// The beat within the bar, from 1.
    public let beat: Int
    /// The track's frame.
    public let frame: Int

    /// "bar B beat b", for logs.
    public var description: String { "bar \(bar) beat \(beat)" }
}
