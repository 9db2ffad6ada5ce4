import Interlude

/// How ``WAVFileWriter`` stores each sample in a WAV file.
public enum WAVSampleType: String, Sendable {
    /// 16-bit signed PCM (format tag 1). Samples are rounded to the nearest step and clipped.
    case int16
    /// 32-bit IEEE float (format tag 3). Samples are stored exactly.
    case float32

    /// Bytes one sample takes in the file.
    var bytesPerSample: Int {
        switch self {
        case .int16: 2
        case .float32: 4
        }
    }

    /// The `fmt ` chunk's format tag.
    var formatTag: UInt16 {
        switch self {
        case .int16: 1
        case .float32: 3
        }
    }
}
