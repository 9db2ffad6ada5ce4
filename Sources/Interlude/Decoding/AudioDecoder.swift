/// One interface for every decoder: WAV, Ogg Vorbis, Ogg Opus, FLAC and MP3.
///
/// A decoder owns its open file and reads it incrementally, so a streamed track never decodes
/// the whole file. Samples come out as interleaved 32-bit float. A decoder is used by one
/// thread at a time: once a stream opens it, only the engine's decode thread calls it, or, on an
/// offline engine, also the thread calling ``SoundEngine/render(frameCount:)``, between updates
/// and never while the decode thread does.
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
    /// The loop the file itself declares, in frames, end exclusive: Vorbis `LOOPSTART` with
    /// `LOOPLENGTH` or `LOOPEND` comments, a WAV `smpl` chunk's first loop. nil when the file
    /// declares none, or declares one that is malformed or outside the track (a warning is
    /// logged then). Always a non-empty range within `0...frameCount`.
    var loopRegion: Range<Int>? { get }
    /// Frames of silence read in place of damaged data the decoder skipped, since it opened: a
    /// damaged Ogg page, say, which the decoder steps over rather than ending the stream. The
    /// position stays exact: each skipped frame is read as one frame of silence. 0 for formats
    /// whose decoders stop at damage instead.
    var skippedFrameCount: Int { get }
    /// Bits per sample of the file's integer PCM (a PCM WAV, a FLAC), or nil for float and
    /// lossy sources. A decoder that gives 16 or fewer promises that every float it reads is
    /// exactly an integer over 32768, so a loaded sound keeps it as 16-bit, half the memory of
    /// float, with no change to what plays.
    var integerBitsPerSample: Int? { get }
}

extension AudioDecoder {
    /// No loop tags: decoders of formats without them need not implement ``loopRegion``.
    public var loopRegion: Range<Int>? { nil }
    /// No damage skipped: decoders that stop at damage need not implement ``skippedFrameCount``.
    public var skippedFrameCount: Int { 0 }
    /// Float or lossy: decoders of such formats need not implement ``integerBitsPerSample``.
    public var integerBitsPerSample: Int? { nil }
}
