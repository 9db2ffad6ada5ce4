import Foundation
import Interlude

/// What `interlude info` prints: the output devices OpenAL Soft offers, whether the default one
/// opens, the ALC and AL extensions, the HRTF data sets and the engine's limits.
public struct DeviceReport: Sendable {
    /// The report as text, one fact per line.
    public let text: String

    /// Probes OpenAL now. Opens the default device (and closes it) to see whether it works, and a
    /// loopback device to read what the mixer supports.
    public static func make() -> DeviceReport {
        let probe = DeviceProbe()
        let configuration = probe.configuration
        var lines: [String] = []
        lines.append("Output devices: the devices SoundEngine.switchDevice(to: .named(NAME)) can use (and --device NAME):")
        if probe.deviceNames.isEmpty {
            lines.append("  (none listed)")
        } else {
            lines += probe.deviceNames.map { "  - \($0)" }
        }
        lines.append("Default device: \(probe.defaultDeviceName ?? "(none)")")
        switch probe.defaultDevice {
        case .opened(let name, let sampleRateInHertz, let periodMilliseconds):
            lines.append("Default device opens: yes, \"\(name)\" at \(sampleRateInHertz) Hz")
            let setting = configuration.outputLatency.map { "Configuration.outputLatency .\($0.rawValue)" } ?? "alsoft.conf"
            let source = probe.isOutputLatencyApplied ? setting : "alsoft.conf (it sets period_size or periods itself)"
            lines.append("Output latency in effect: \(String(format: "%.1f", periodMilliseconds)) ms periods, from \(source)")
        case .failed(let error):
            lines.append("Default device opens: NO (\(error)).")
            lines.append("  This machine has no sound device. Render offline with `interlude render`, or use")
            lines.append("  OpenAL Soft's null backend: `interlude play FILE --device null`, or OutputDevice.null")
            lines.append("  (it sets ALSOFT_DRIVERS=null before OpenAL starts); a game that must run both with and")
            lines.append("  without a device asks for OutputDevice.systemDefaultOrNull.")
        }
        lines.append("ALC extensions (no device): \(probe.globalALCExtensions)")
        switch probe.mixer {
        case .available(let vendor, let renderer, let version, let alcExtensions, let alExtensions, let hrtfNames):
            lines.append("OpenAL: \(vendor), \(renderer), \(version)")
            lines.append("ALC extensions (loopback device): \(alcExtensions)")
            lines.append("AL extensions: \(alExtensions)")
            lines.append("HRTF data sets: \(hrtfNames.isEmpty ? "(none)" : hrtfNames.joined(separator: ", "))")
            lines.append("HRTF in the default configuration: \(configuration.hrtf ? "on" : "off") (Configuration.hrtf, scene key \"hrtf\")")
        case .unavailable(let error):
            lines.append("Loopback device: unavailable (\(error))")
        }
        lines.append("Limits: \(configuration.monoSourceCount) mono + \(configuration.stereoSourceCount) stereo sources per context by default (Configuration.monoSourceCount, up to 4096); \(probe.streamSourceCount) kept for streams")
        lines.append("Offline rendering: 8000...192000 Hz, 1 or 2 channels, float32 mixing, 16-bit or float WAV output")
        lines += interruptionSourceLines()
        return DeviceReport(text: lines.joined(separator: "\n"))
    }

    /// The interruption sources and whether this machine offers each: a missing server or bus is
    /// a fact to report, not an error.
    private static func interruptionSourceLines() -> [String] {
        func line(_ name: String, _ availability: DesktopSourceProbe.Availability) -> String {
            switch availability {
            case .available(let found): "  - \(name): available: \(found)"
            case .unavailable(let why): "  - \(name): unavailable here: \(why)"
            }
        }
        let server = DesktopSourceProbe.audioServer()
        let logind = DesktopSourceProbe.logind()
        return [
            "Interruption sources (on for real-time outputs, off offline; see Configuration.audioServer and .logind):",
            "  - game: always (beginInterruption / endInterruption / activate)",
            "  - jobControl: available (Ctrl-Z, then fg; Configuration.handlesJobControl, off by default)",
            line("phoneStream (calls: media.role phone), the server's loss and return, the default sink", server),
            line("sleep (logind PrepareForSleep, with a delay inhibitor lock)", logind.sleep),
            line("sessionSwitch (logind session Active)", logind.sessionSwitch),
            "  - device: always (ALC_CONNECTED; the hold only a rebuild releases)",
        ]
    }
}
