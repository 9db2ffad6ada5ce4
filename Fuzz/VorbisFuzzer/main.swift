// libFuzzer harness for the Ogg Vorbis path: Interlude's read / seek / tell callbacks into
// libvorbisfile, the header and channel checks, the truncation probe, reads through damaged
// pages (OV_HOLE), seeks, and decodeAll's capped first allocation.
@_spi(Tools) import Interlude  // DecoderFactory: the package's tools' interface

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let path = FuzzInput.write(data, size)
    if let decoder = try? VorbisDecoder(path: path) {
        // Decoding is bounded so that a granule position inflated by the fuzzer cannot turn
        // into a long (but legitimate) decode; 1 s of 48 kHz audio per input is plenty.
        FuzzInput.exercise(decoder, maximumFrames: 48_000)
    }
    _ = try? DecoderFactory.decodeAll(path: path)
    return 0
}
