/// What OpenAL offers on this machine, probed for a device report: the output devices, whether
/// the default one opens, the extensions, the HRTF data sets and the engine's limits. Facts
/// only; the words around them belong to the tool that prints them (`interlude info`).
package struct DeviceProbe: Sendable {
    /// What opening the default output device gave.
    package enum DefaultDevice: Sendable {
        /// It opened: its name, mixing rate and mixing period (the output latency in effect).
        case opened(name: String, sampleRateInHertz: Int, periodMilliseconds: Double)
        /// It did not; the error, as text.
        case failed(String)
    }

    /// What a loopback device (the mixer without a sound card) reports, or why none opened.
    package enum Mixer: Sendable {
        /// The loopback device opened and a context was made current on it.
        case available(vendor: String, renderer: String, version: String, alcExtensions: String,
                       alExtensions: String, hrtfNames: [String])
        /// It did not; the error, as text.
        case unavailable(String)
    }

    /// The playback devices OpenAL lists, by name.
    package let deviceNames: [String]
    /// The name of the device OpenAL opens by default, if it names one.
    package let defaultDeviceName: String?
    /// Whether the default device opened.
    package let defaultDevice: DefaultDevice
    /// The default configuration's latency was given to OpenAL Soft (false: alsoft.conf sets
    /// the periods itself, or the configuration leaves them alone).
    package let isOutputLatencyApplied: Bool
    /// The ALC extensions available without a device.
    package let globalALCExtensions: String
    /// What the mixer supports.
    package let mixer: Mixer
    /// The default configuration the probe opened devices with.
    package let configuration: SoundEngine.Configuration
    /// Stereo sources kept for music streams.
    package let streamSourceCount: Int

    /// Probes OpenAL now. Opens the default device (and closes it) to see whether it works, and a
    /// loopback device to read what the mixer supports.
    package init() {
        let configuration = SoundEngine.Configuration()
        isOutputLatencyApplied = OpenALConfigFile.prepare(configuration.outputLatency, allowsMoves: false).periods
        NullBackend.markOpenALStarted()
        let attributes = ALDevice.Attributes(monoSourceCount: configuration.monoSourceCount,
                                             stereoSourceCount: configuration.stereoSourceCount, hrtf: false,
                                             limiter: configuration.limitsOutput(on: .systemDefault),
                                             updatesPerSecond: configuration.outputLatency?.updatesPerSecond)
        deviceNames = ALDeviceList.playbackDeviceNames()
        defaultDeviceName = ALDeviceList.defaultPlaybackDeviceName()
        do {
            defer { OpenALConfigFile.finish() }
            let device = try ALDevice(kind: .playback(name: nil), attributes: attributes)
            defaultDevice = .opened(name: device.name, sampleRateInHertz: device.sampleRate,
                                    periodMilliseconds: 1000 / device.updatesPerSecond)
            Self.close(device)
        } catch {
            defaultDevice = .failed("\(error)")
        }
        globalALCExtensions = ALDeviceList.globalALCExtensionString()
        do {
            let loopback = try ALDevice(kind: .loopback(format: AudioFormat(sampleRate: 48_000, channelCount: 2)), attributes: attributes)
            defer { Self.close(loopback) }
            let strings = try ALContextLock.run {
                try loopback.context.makeCurrent()
                return ALDeviceList.currentContextStrings()
            }
            mixer = .available(vendor: strings.vendor, renderer: strings.renderer, version: strings.version,
                               alcExtensions: loopback.alcExtensionString, alExtensions: strings.extensions,
                               hrtfNames: loopback.hrtfNames)
        } catch {
            mixer = .unavailable("\(error)")
        }
        self.configuration = configuration
        streamSourceCount = SoundEngine.Configuration.streamSourceCount
    }

    /// Frees what a probed device holds and closes it.
    private static func close(_ device: ALDevice) {
        ALContextLock.run {
            if (try? device.context.makeCurrent()) != nil { device.deleteAllNames() }
            ALContext.clearCurrent()
            device.close()
        }
    }
}
