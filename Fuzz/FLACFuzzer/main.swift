// libFuzzer harness for the FLAC path: Interlude's stream callbacks into libFLAC, the STREAMINFO
// checks, the frame-counting pass for an unknown length, block hand-over between reads, reads
// through damaged frames, seeks, and decodeAll's capped first allocation.
@_spi(Tools) import Interlude  // DecoderFactory: the package's tools' interface

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let path = FuzzInput.write(data, size)
    if let decoder = try? FLACDecoder(path: path) {
        // STREAMINFO's length is whatever the fuzzer wrote; 1 s of 48 kHz audio per input is plenty.
        FuzzInput.exercise(decoder, maximumFrames: 48_000)
    }
    _ = try? DecoderFactory.decodeAll(path: path)
    return 0
}
