import COpenAL

/// What OpenAL reports without a device of the engine's: the playback devices its backend
/// offers, the default one, the global ALC extensions, and the current context's strings (for
/// `interlude info`).
enum ALDeviceList {
    /// The playback devices OpenAL Soft's backend offers (ALC_ALL_DEVICES_SPECIFIER).
    static func playbackDeviceNames() -> [String] {
        guard alcIsExtensionPresent(nil, "ALC_ENUMERATE_ALL_EXT") != 0,
              let list = alcGetString(nil, ALC_ALL_DEVICES_SPECIFIER) else { return [] }
        var names: [String] = []
        var cursor = list
        while cursor.pointee != 0 {
            let name = String(cString: cursor)
            names.append(name)
            cursor += name.utf8.count + 1
        }
        return names
    }

    /// The default playback device's name, when there is one.
    static func defaultPlaybackDeviceName() -> String? {
        alcGetString(nil, ALC_DEFAULT_ALL_DEVICES_SPECIFIER).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The ALC extensions available without a device.
    static func globalALCExtensionString() -> String {
        alcGetString(nil, ALC_EXTENSIONS).map { String(cString: $0) } ?? ""
    }

    /// The AL strings of the current context: vendor, renderer, version, extensions.
    static func currentContextStrings() -> (vendor: String, renderer: String, version: String, extensions: String) {
        func string(_ parameter: ALenum) -> String { alGetString(parameter).map { String(cString: $0) } ?? "" }
        return (string(AL_VENDOR), string(AL_RENDERER), string(AL_VERSION), string(AL_EXTENSIONS))
    }
}
