import Logging

/// Starts streamed voices: a decoder's track, read and decoded off the engine lock by the
/// ``DecodeWorker`` into a ``StreamQueue`` of the voice's own, played through the
/// ``VoicePlayer`` like a loaded sound's voice. A positional voice of a stereo track streams its
/// mono downmix.
final class StreamedVoiceStart {
    private let configuration: SoundEngine.Configuration
    /// For the streamed voices' underruns and decode errors.
    private let logger: Logger
    private let table: VoiceTable
    /// Reads and decodes streamed voices off the engine lock (the music's thread).
    private let worker: DecodeWorker
    private let player: VoicePlayer

    init(configuration: SoundEngine.Configuration, logger: Logger, table: VoiceTable, worker: DecodeWorker, player: VoicePlayer) {
        self.configuration = configuration
        self.logger = logger
        self.table = table
        self.worker = worker
        self.player = player
    }

    /// Starts a streamed voice of `decoder`'s track, which goes to the decode thread: nothing
    /// here calls it after this. As ``VoicePlayer/play(_:parameters:origin:startFrame:startsPaused:factors:)``
    /// otherwise. Throws `.tooManyVoices` past ``SoundEngine/Configuration/maximumStreamedVoiceCount``
    /// streams.
    func play(path: String, decoder: any AudioDecoder, parameters: VoiceParameters, command: String) throws -> VoiceHandle {
        let groupIndex = try player.checkNewVoice(parameters, command: command)
        guard table.streamedVoiceCount < configuration.maximumStreamedVoiceCount else {
            throw InterludeError(.tooManyVoices, "\(command): all \(configuration.maximumStreamedVoiceCount) streamed voices are in use (Configuration.maximumStreamedVoiceCount)")
        }
        // As a loaded one-shot: dropped, and the decoder with it.
        if player.dropsPlay(isLooping: parameters.isLooping) { return player.dropPlay(.play) }
        let downmixes = parameters.position != nil
        let stream = StreamQueue(path: path, decoder: decoder, worker: worker, waitsForDecode: configuration.output.isOffline,
                                 isLooping: parameters.isLooping, bufferCount: configuration.streamBufferCount,
                                 bufferFrameCount: bufferFrameCount(decoder.format, downmixes: downmixes),
                                 loopRegion: decoder.loopRegion, downmixesToMono: downmixes, logger: logger)
        return player.startStreamedVoice(stream, parameters: parameters, groupIndex: groupIndex, command: command)
    }

    /// Frames in each chunk of a streamed voice: the configured buffer length, cut so that the
    /// ring's slots (the track's channels) and the AL buffers (mono when downmixed) hold at most
    /// ``SoundEngine/Configuration/streamedVoiceMaximumBytesInFlight`` of float PCM.
    private func bufferFrameCount(_ format: AudioFormat, downmixes: Bool) -> Int {
        let queuedChannels = downmixes ? 1 : format.channelCount
        let bytesPerFrame = MemoryLayout<Float>.size * configuration.streamBufferCount * (format.channelCount + queuedChannels)
        let wantedFrames = max(256, Int(Double(format.sampleRate) * configuration.streamBufferSeconds))
        return min(wantedFrames, configuration.streamedVoiceMaximumBytesInFlight / bytesPerFrame)
    }
}
