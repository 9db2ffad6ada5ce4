// libFuzzer harness for the MP3 path: the factory's ID3v2 and frame-sync sniffing, Interlude's
// reader callbacks into libmpg123, the scan for the exact length, gapless reads, seeks with
// the bit-reservoir pre-roll, and decodeAll.
@_spi(Tools) import Interlude  // DecoderFactory: the package's tools' interface

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let path = FuzzInput.write(data, size)
    if let decoder = try? MP3Decoder(path: path) {
        FuzzInput.exercise(decoder, maximumFrames: 48_000)
    }
    _ = try? DecoderFactory.decodeAll(path: path)
    return 0
}
