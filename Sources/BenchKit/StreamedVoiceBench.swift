import Interlude

/// Scenario 7's streamed-voice row: the PCM one streamed voice holds in flight (its decoded
/// chunks waiting on the decode thread's side and its AL buffers), as the engine counts it, for
/// as many streamed voices as the default configuration allows, placed and unplaced.
public enum StreamedVoiceBench {
    /// Streams the 48 kHz stereo Vorbis track of `trackSeconds` as every streamed voice the
    /// default configuration allows (half positional, so downmixed, half not), renders
    /// `renderSeconds` offline, and reports the largest PCM in flight of any of them.
    public static func rows(trackSeconds: Double, renderSeconds: Double) throws -> [BenchRow] {
        let path = try BenchAssets.track(seconds: trackSeconds)
        let engine = try SceneRunner.offlineEngine()
        defer { engine.shutdown() }
        let voiceCount = SoundEngine.Configuration().maximumStreamedVoiceCount
        var voices: [VoiceHandle] = []
        for index in 0..<voiceCount {
            var parameters = VoiceParameters(position: index.isMultiple(of: 2) ? Vector3(Float(index), 0, -2) : nil)
            parameters.isLooping = true
            voices.append(try engine.play(streamFrom: path, parameters: parameters))
        }
        _ = try engine.render(frameCount: Int(renderSeconds * Double(BenchAssets.outputSampleRate)))
        guard voices.allSatisfy(engine.isPlaying) else {
            throw InterludeError(.invalidArgument, "streamed-voice bench: a voice of \(path) stopped playing")
        }
        let largestBytes = voices.compactMap { engine.streamedVoiceBytesInFlight(of: $0) }.max() ?? 0
        let largestKiB = Double(largestBytes) / 1024
        return [BenchRow(scenario: "7. Memory",
                         measure: "PCM in flight per streamed voice (largest of \(voiceCount) voices of the 48 kHz stereo track, half positional; default configuration)",
                         unit: "KiB", engine: largestKiB, goal: "<= 256 KiB", isGoalMet: largestKiB <= 256)]
    }
}
