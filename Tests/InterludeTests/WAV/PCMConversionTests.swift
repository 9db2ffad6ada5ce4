import Testing
import Interlude
import InterludeScene

@Suite struct PCMConversionTests {
    static let cases: [(sample: Float, expected: Int16)] = [
        (0, 0), (0.5, 16384), (-0.5, -16384), (-1, -32768),
        (1, 32767), (2, 32767), (-2, -32768), (.infinity, 32767), (-.infinity, -32768),
        (1e30, 32767), (.nan, 0),
        // Ties round to even, as lrintf in libvorbisfile's ov_read does.
        (0.5 / 32768, 0), (1.5 / 32768, 2), (-2.5 / 32768, -2),
    ]

    @Test(arguments: cases)
    func int16MatchesOvReadRounding(sample: Float, expected: Int16) {
        #expect(PCMConversion.int16(fromFloat: sample) == expected)
    }
}
