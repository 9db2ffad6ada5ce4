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
        let chunkFrames = configuration.boundedChunkFrameCount(decoder.format, queuedChannelCount: downmixes ? 1 : decoder.format.channelCount)
        let stream = StreamQueue(path: path, decoder: decoder, worker: worker, waitsForDecode: configuration.output.isOffline,
                                 isLooping: parameters.isLooping, bufferCount: configuration.streamBufferCount,
                                 bufferFrameCount: chunkFrames,
                                 loopRegion: decoder.loopRegion, downmixesToMono: downmixes, logger: logger)
        return player.startStreamedVoice(stream, parameters: parameters, groupIndex: groupIndex, command: command)
    }
}
