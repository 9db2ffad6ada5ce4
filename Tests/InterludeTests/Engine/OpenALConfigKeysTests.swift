import Testing
@testable import Interlude

/// The keys Interlude finds in the user's OpenAL Soft configuration files, which decide whether
/// its own period and `allow-moves` lines are written (a user's own setting wins).
@Suite struct OpenALConfigKeysTests {
    @Test("Keys are read in any section, trimmed; comments, lines without '=' and CRLF endings are handled")
    func keysOfAConfigurationText() {
        let text = """
        # period_size = 512 (a comment)
        [general]
          period_size\t= 2048\r
        periods=3
        [pulse]
        allow-moves = true
           # allow-moves = false
        =no key
        a line without an equals sign
        """
        #expect(OpenALConfigFile.keys(in: Array(text.utf8)) == ["period_size", "periods", "allow-moves"])
    }

    @Test("A key with UTF-8 in it, and an empty file")
    func unusualTexts() {
        #expect(OpenALConfigFile.keys(in: Array("clé = 1\n".utf8)) == ["clé"])
        #expect(OpenALConfigFile.keys(in: [UInt8]()).isEmpty)
    }
}

/// The output as the engine logs it: the case as Swift writes it.
@Suite struct OutputDeviceDescriptionTests {
    @Test("Each case reads as Swift writes it, a named device's name quoted and escaped")
    func descriptions() {
        #expect("\(OutputDevice.systemDefault)" == "systemDefault")
        #expect("\(OutputDevice.null)" == "null")
        #expect("\(OutputDevice.systemDefaultOrNull)" == "systemDefaultOrNull")
        #expect("\(OutputDevice.offline())" == "offline(sampleRate: 48000, channelCount: 2)")
        #expect("\(OutputDevice.offline(sampleRate: 44_100, channelCount: 6))" == "offline(sampleRate: 44100, channelCount: 6)")
        #expect("\(OutputDevice.named("Built-in \"Speakers\""))" == #"named("Built-in \"Speakers\"")"#)
    }
}
