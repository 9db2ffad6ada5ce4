extension SoundEngine {
    /// Everything the engine is set up with. Defaults suit a game on the system's default device.
    public struct Configuration: Sendable {
        /// Where the mix goes. Default: the system's default device.
        public var output: OutputDevice = .systemDefault
        /// When a named ``output`` disappears: wait for it (the default), or follow the system
        /// default (see ``NamedDeviceLoss``).
        public var whenNamedDeviceDisappears: NamedDeviceLoss = .waitForIt
        /// Mono (positional) sources the context is created with (ALC_MONO_SOURCES).
        public var monoSourceCount = 255
        /// Stereo sources the context is created with (ALC_STEREO_SOURCES).
        public var stereoSourceCount = 16
        /// Voices that may hold a real OpenAL source at once; the rest are virtual (their time
        /// runs on, unheard). nil: every source the context has, less those kept for streams.
        public var realVoiceBudget: Int?
        /// Logical voices alive at once; past this, play throws `.tooManyVoices`.
        public var maximumVoiceCount = 1_000_000
        /// Binaural output through OpenAL Soft's HRTF (stereo only; best on headphones).
        public var hrtf = false
        /// Passes the output through OpenAL Soft's peak limiter (ALC_OUTPUT_LIMITER_SOFT), so that
        /// a loud moment (many voices at once, gains above 1 from a loudness target) never
        /// clips: no sample passes full scale, and a mix whose peaks stay below it is unchanged.
        /// The limiter looks ahead (1 ms in OpenAL Soft), so every sound is heard that much later;
        /// OpenAL Soft on its own limits only an output of integer samples, which a sound server's
        /// float stream is not. nil: on for real-time outputs, off for offline ones, whose renders
        /// stay the plain sum of their voices. A rebuilt or switched device gets the same setting.
        public var limiter: Bool?
        /// How every source resamples (AL_SOFT_source_resampler). nil: OpenAL Soft's own default
        /// (linear in 1.19, cubic spline from 1.23, or what alsoft.conf says), with no call made. A resampler the
        /// library lacks makes the engine's creation throw `.unsupportedFormat`.
        public var resampler: Resampler?
        /// Seeds the engine's random choices (a cue's variants, its drawn gains and pitches):
        /// the same seed and the same calls give the same choices on every run and platform.
        public var seed: UInt64 = 0
        /// How often the realtime driver updates (stream refills, fades, completions, device
        /// checks) with ``UpdateTiming/everyUpdateInterval``, and before a real device's clock
        /// has been read. Offline renders update every this many seconds of rendered audio.
        public var updateIntervalSeconds = 0.010
        /// When the realtime driver updates on a real device: just before each of OpenAL Soft's
        /// mixes (the default), which wakes the driver half as often as every
        /// ``updateIntervalSeconds`` for the same latency, or at that interval.
        public var updateTiming: UpdateTiming = .beforeEachMix
        /// Runs the realtime driver thread on a real device. Off: the game calls
        /// ``SoundEngine/update()`` from its own loop, once a frame after moving its voices,
        /// which saves a thread's wake-up every update interval; a loop that stalls for longer
        /// than a stream's queue (``streamBufferCount`` x ``streamBufferSeconds``) lets the
        /// music run dry until its next update.
        public var runsDriverThread = true
        /// After this many seconds with nothing to play (no voice, no stream, no fade), the
        /// driver thread pauses the device's output (ALC_SOFT_pause_device), so that OpenAL
        /// Soft's mixer stops mixing silence and the engine costs next to nothing; the next sound
        /// runs it again from the driver, off the game's thread. nil: the output runs as long as
        /// the engine is open. Needs ``runsDriverThread``; ignored offline.
        public var idleOutputPauseSeconds: Double? = 1.0
        /// What an interruption's end resumes.
        public var resumePolicy: ResumePolicy = .alwaysResume
        /// Buffers in a stream's queue.
        public var streamBufferCount = 4
        /// Length of each stream buffer.
        public var streamBufferSeconds = 0.2
        /// Streamed voices (`play(streamFrom:parameters:)`) alive at once; past
        /// this, starting one throws `.tooManyVoices`. Each holds an open file and a decoder.
        public var maximumStreamedVoiceCount = 16
        /// Bytes of decoded PCM one streamed voice holds at most: its decoded chunks waiting on
        /// the decode thread's side and its AL buffers, both float. A voice's chunks are
        /// ``streamBufferSeconds`` long unless that would pass this bound, and are cut shorter
        /// then: 256 KiB holds 4 + 4 chunks of 0.11 s of a 48 kHz stereo track streamed as a
        /// positional (mono) voice. At least `16 KiB x streamBufferCount`. Each stem of a track of
        /// several stems (``MusicTrack``) is held to the same bound, so four stems cost what four
        /// streamed voices do.
        public var streamedVoiceMaximumBytesInFlight = 256 * 1024
        /// How gain falls with distance.
        public var distanceModel: DistanceModel = .inverseClamped
        /// Scales the doppler effect (0 turns it off).
        public var dopplerFactor: Float = 1
        /// Speed of sound in units per second, for doppler.
        public var speedOfSoundMetresPerSecond: Float = 343.3
        /// Written as PULSE_PROP_media.role before the device opens, so PulseAudio and
        /// PipeWire role policies see game audio. nil leaves the environment alone, and a value
        /// already in the environment is always kept. It labels the client; OpenAL Soft 1.19
        /// blanks its stream's own role, while on 1.24 the stream carries this one too.
        public var mediaRole: String? = "game"
        /// Where a state snapshot is written on every interruption, device loss and shutdown.
        /// nil: none. It is encoded and written on a writer thread of its own, never holding up
        /// other calls; `beginInterruption`, `disconnectDevice` and `shutdown` return once theirs
        /// is on disk, and a later snapshot is never overwritten by an earlier one.
        public var statePath: String?
        /// Interrupts on Ctrl-Z (SIGTSTP) before the process stops, and resumes on SIGCONT.
        public var handlesJobControl = false
        /// logind's sleep and session-switch sources (see ``LogindSources``).
        public var logind = LogindSources()
        /// The engine's own audio-server connection: phone streams interrupt, and the server's
        /// death and return are seen at once (see ``AudioServer``).
        public var audioServer = AudioServer()
        /// How much audio the output buffers (see ``OutputLatency``): applied by the first engine
        /// of the process, before OpenAL Soft reads its configuration; nil leaves OpenAL Soft's
        /// own configuration (alsoft.conf) alone. Ignored offline. Default `.balanced`, OpenAL
        /// Soft's own period: measured with the other core busy (`make bench`, scenarios 10 and
        /// 15), it lost no click at start-up and had no underrun in 60 s, and on a heavily loaded
        /// machine it lost far less sound than `.low` at its former 10 ms periods (10 gaps in 180 s
        /// against 89). Choose `.low` for about 25 ms less latency (a median of 19 ms from `play`
        /// to the sink against 44 ms), `.safe` for a machine that is always busy.
        public var outputLatency: OutputLatency? = .balanced
        /// How long opening a device waits until its output really runs (its clock advances
        /// steadily), so that a sound played right after is heard on time: at creation, in
        /// ``SoundEngine/switchDevice(to:)`` and ``SoundEngine/reconnectDevice()``, and before a
        /// rebuild after a loss. 0 does not wait. A device whose stream runs from the open is not
        /// waited for: on a PipeWire server, and on a PulseAudio default sink already running on
        /// blocks shorter than the engine's buffer. See ``DeviceEvent/outputStarted(afterSeconds:)``.
        public var outputStartTimeoutSeconds = 3.0
        /// The label of the engine's swift-log logger.
        public var loggerLabel = "Interlude"

        /// The default configuration.
        public init() {}

        /// A configuration for `output`, with defaults for the rest.
        public init(output: OutputDevice) {
            self.output = output
        }

        /// Whether a device opened for `output` limits its output: ``limiter``, else on for a
        /// real-time output and off offline.
        func limitsOutput(on output: OutputDevice) -> Bool {
            limiter ?? !output.isOffline
        }

        /// Frames per chunk of a stream of `format`: ``streamBufferSeconds`` of it, 256 at least.
        func chunkFrameCount(_ format: AudioFormat) -> Int {
            max(256, Int(Double(format.sampleRate) * streamBufferSeconds))
        }

        /// Frames per chunk of a streamed voice, or of each stem of a track of several:
        /// ``chunkFrameCount(_:)``, cut so that the ring's slots (`format`'s channels) and the AL
        /// buffers (`queuedChannelCount`: 1 when downmixed) hold at most
        /// ``streamedVoiceMaximumBytesInFlight`` of float PCM.
        func boundedChunkFrameCount(_ format: AudioFormat, queuedChannelCount: Int) -> Int {
            let bytesPerFrame = MemoryLayout<Float>.size * streamBufferCount * (format.channelCount + queuedChannelCount)
            return min(chunkFrameCount(format), streamedVoiceMaximumBytesInFlight / bytesPerFrame)
        }

        /// Sources kept back from voices for streams: two channels, each able to crossfade.
        package static let streamSourceCount = 4

        /// Throws `.invalidArgument` for values out of range.
        func validate() throws {
            let call = "SoundEngine.Configuration"
            guard monoSourceCount >= 1, monoSourceCount <= 4096 else {
                throw InterludeError(.invalidArgument, "\(call): monoSourceCount must be 1...4096, got \(monoSourceCount)")
            }
            guard stereoSourceCount >= Self.streamSourceCount, stereoSourceCount <= 1024 else {
                throw InterludeError(.invalidArgument, "\(call): stereoSourceCount must be \(Self.streamSourceCount)...1024, got \(stereoSourceCount)")
            }
            guard updateIntervalSeconds.isFinite, updateIntervalSeconds >= 0.001, updateIntervalSeconds <= 0.1 else {
                throw InterludeError(.invalidArgument, "\(call): updateIntervalSeconds must be 0.001...0.1, got \(updateIntervalSeconds)")
            }
            if let realVoiceBudget, realVoiceBudget < 1 {
                throw InterludeError(.invalidArgument, "\(call): realVoiceBudget must be >= 1, got \(realVoiceBudget)")
            }
            guard maximumVoiceCount >= 1 else {
                throw InterludeError(.invalidArgument, "\(call): maximumVoiceCount must be >= 1, got \(maximumVoiceCount)")
            }
            guard streamBufferCount >= 2, streamBufferCount <= 32 else {
                throw InterludeError(.invalidArgument, "\(call): streamBufferCount must be 2...32, got \(streamBufferCount)")
            }
            guard streamBufferSeconds.isFinite, streamBufferSeconds >= 0.02, streamBufferSeconds <= 2 else {
                throw InterludeError(.invalidArgument, "\(call): streamBufferSeconds must be 0.02...2, got \(streamBufferSeconds)")
            }
            guard maximumStreamedVoiceCount >= 0 else {
                throw InterludeError(.invalidArgument, "\(call): maximumStreamedVoiceCount must be >= 0, got \(maximumStreamedVoiceCount)")
            }
            // 256 frames of stereo float in every ring slot and every AL buffer.
            let leastBytesInFlight = 16 * 1024 * streamBufferCount
            guard streamedVoiceMaximumBytesInFlight >= leastBytesInFlight else {
                throw InterludeError(.invalidArgument, "\(call): streamedVoiceMaximumBytesInFlight must be >= \(leastBytesInFlight) (16 KiB x streamBufferCount), got \(streamedVoiceMaximumBytesInFlight)")
            }
            if case .offline(let sampleRate, let channelCount) = output {
                guard (8_000...192_000).contains(sampleRate), (1...2).contains(channelCount) else {
                    throw InterludeError(.invalidArgument, "\(call): offline output must be 8000...192000 Hz and 1 or 2 channels, got \(sampleRate) Hz, \(channelCount) channels")
                }
                if hrtf && channelCount != 2 {
                    throw InterludeError(.invalidArgument, "\(call): hrtf needs 2 output channels")
                }
            }
            try logind.validate()
            if let idleOutputPauseSeconds, !(idleOutputPauseSeconds.isFinite && (0...3600).contains(idleOutputPauseSeconds)) {
                throw InterludeError(.invalidArgument, "\(call): idleOutputPauseSeconds must be 0...3600 or nil, got \(idleOutputPauseSeconds)")
            }
            guard outputStartTimeoutSeconds.isFinite, (0...30).contains(outputStartTimeoutSeconds) else {
                throw InterludeError(.invalidArgument, "\(call): outputStartTimeoutSeconds must be 0...30, got \(outputStartTimeoutSeconds)")
            }
            guard dopplerFactor.isFinite, dopplerFactor >= 0 else {
                throw InterludeError(.invalidArgument, "\(call): dopplerFactor must be >= 0, got \(dopplerFactor)")
            }
            guard speedOfSoundMetresPerSecond.isFinite, speedOfSoundMetresPerSecond > 0 else {
                throw InterludeError(.invalidArgument, "\(call): speedOfSoundMetresPerSecond must be > 0, got \(speedOfSoundMetresPerSecond)")
            }
            try audioServer.validate(in: call)
        }
    }
}
