/// One interface for every decoder: the WAV reader and the Ogg Vorbis reader.
///
/// A decoder owns its open file and reads it incrementally, so a streamed track never decodes
/// the whole file. Samples come out as interleaved 32-bit float. A decoder is used by one
/// thread at a time (the engine holds its lock around every call).
public protocol AudioDecoder: AnyObject {
    /// The file being decoded, for error messages.
    var path: String { get }
    /// The decoded format.
    var format: AudioFormat { get }
    /// Total length of the file in frames.
    var frameCount: Int { get }
    /// Reads up to `buffer.count / format.channelCount` frames of interleaved float samples into
    /// `buffer`. Returns the number of frames read; 0 means the end of the file.
    /// Throws ``InterludeError`` with `.corruptData` when the data is damaged.
    func read(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int
    /// Moves the read position to `frame` (0 ..< frameCount, or frameCount for the end).
    func seek(toFrame frame: Int) throws
}
