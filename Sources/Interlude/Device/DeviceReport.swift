import Logging

/// What `interlude info` prints: the output devices OpenAL Soft offers, whether the default one
/// opens, the ALC and AL extensions, the HRTF data sets and the engine's limits.
public struct DeviceReport: Sendable {
    /// The report as text, one fact per line.
    public let text: String

    /// Probes OpenAL now. Opens the default device (and closes it) to see whether it works, and a
    /// loopback device to read what the mixer supports.
    public static func make() -> DeviceReport {
        NullBackend.markOpenALStarted()
        var lines: [String] = []
        let configuration = SoundEngine.Configuration()
        let attributes = ALDevice.Attributes(monoSourceCount: configuration.monoSourceCount,
                                             stereoSourceCount: configuration.stereoSourceCount, hrtf: false)
        let session = AudioSession(policy: .alwaysResume, logger: Logger(label: "Interlude.info"))
        let names = ALDevice.playbackDeviceNames()
        lines.append("Output devices: the devices SoundEngine.switchDevice(to: .named(NAME)) can use (and --device NAME):")
        if names.isEmpty {
            lines.append("  (none listed)")
        } else {
            lines += names.map { "  - \($0)" }
        }
        lines.append("Default device: \(ALDevice.defaultPlaybackDeviceName() ?? "(none)")")
        do {
            let device = try ALDevice(kind: .playback(name: nil), attributes: attributes)
            lines.append("Default device opens: yes, \"\(device.name)\" at \(device.sampleRate) Hz")
            session.tearDown(device, isReachable: true)
        } catch {
            lines.append("Default device opens: NO (\(error)).")
            lines.append("  This machine has no sound device. Render offline with `interlude render`, or use")
            lines.append("  OpenAL Soft's null backend: `interlude play FILE --device null`, or OutputDevice.null")
            lines.append("  (it sets ALSOFT_DRIVERS=null before OpenAL starts).")
        }
        lines.append("ALC extensions (no device): \(ALDevice.globalALCExtensionString())")
        do {
            let loopback = try ALDevice(kind: .loopback(format: AudioFormat(sampleRate: 48_000, channelCount: 2)), attributes: attributes)
            try session.attach(loopback)
            let strings = ALDevice.currentContextStrings()
            lines.append("OpenAL: \(strings.vendor), \(strings.renderer), \(strings.version)")
            lines.append("ALC extensions (loopback device): \(loopback.alcExtensionString)")
            lines.append("AL extensions: \(strings.extensions)")
            let hrtfs = loopback.hrtfNames
            lines.append("HRTF data sets: \(hrtfs.isEmpty ? "(none)" : hrtfs.joined(separator: ", "))")
            lines.append("HRTF in the default configuration: \(configuration.hrtf ? "on" : "off") (Configuration.hrtf, scene key \"hrtf\")")
            session.tearDown(loopback, isReachable: true)
        } catch {
            lines.append("Loopback device: unavailable (\(error))")
        }
        lines.append("Limits: \(configuration.monoSourceCount) mono + \(configuration.stereoSourceCount) stereo sources per context by default (Configuration.monoSourceCount, up to 4096); \(SoundEngine.Configuration.streamSourceCount) kept for streams")
        lines.append("Offline rendering: 8000...192000 Hz, 1 or 2 channels, float32 mixing, 16-bit or float WAV output")
        return DeviceReport(text: lines.joined(separator: "\n"))
    }
}
