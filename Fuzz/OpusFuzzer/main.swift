// libFuzzer harness for the Ogg Opus path: the factory's first-packet sniffing, Interlude's
// callbacks into libopusfile, the channel and link checks, reads through damaged pages (OP_HOLE),
// seeks with their 0.5 s pre-roll, and decodeAll's capped first allocation.
@_spi(Tools) import Interlude  // DecoderFactory: the package's tools' interface

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let path = FuzzInput.write(data, size)
    if let decoder = try? OpusDecoder(path: path) {
        // A granule position inflated by the fuzzer must not turn into a long decode.
        FuzzInput.exercise(decoder, maximumFrames: 48_000)
    }
    _ = try? DecoderFactory.decodeAll(path: path)
    return 0
}
