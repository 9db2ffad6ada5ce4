// libFuzzer harness for the WAV reader: the chunk walk, the fmt parser (plain and
// EXTENSIBLE), every sample encoding, reads past a lying data size, seeks, and decodeAll's
// allocation (bounded by the real file size, never by a declared chunk size).
@_spi(Tools) import Interlude  // DecoderFactory: the package's tools' interface

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let path = FuzzInput.write(data, size)
    guard let decoder = try? WAVDecoder(path: path) else {
        // Not a WAV: content detection may still pick another decoder (a mutated input that
        // begins with an MPEG frame sync goes to the MP3 decoder, which may decode a frame of
        // 1,152 samples from a few bytes), so only "never crashes" holds here.
        _ = try? DecoderFactory.decodeAll(path: path)
        return 0
    }
    // A WAV's frames are bounded by its bytes: a frame is at least one byte.
    precondition(decoder.frameCount <= size, "frameCount \(decoder.frameCount) > file size \(size)")
    FuzzInput.exercise(decoder, maximumFrames: size)
    if let decoded = try? DecoderFactory.decodeAll(path: path) {
        precondition(decoded.samples.count <= size, "decodeAll made \(decoded.samples.count) samples from \(size) bytes")
    }
    return 0
}
