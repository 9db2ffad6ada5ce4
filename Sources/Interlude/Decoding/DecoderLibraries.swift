import CDecoderLibraries

/// libFLAC, libmpg123 and libopusfile, loaded the first time a file of theirs is opened rather
/// than linked: a game that plays WAV and Ogg Vorbis alone never maps them (with libopus, about
/// 340 KiB resident), and a machine without one still plays every other format.
enum DecoderLibraries {
    /// libFLAC's functions. Throws `.unsupportedFormat`, naming `path`, the library and what is
    /// missing, when it cannot be loaded.
    static func flac(for path: String) throws -> ILFLACFunctions {
        guard let functions = il_flac_functions() else {
            throw unavailable(path, "FLAC", il_flac_error())
        }
        return functions.pointee
    }

    /// libmpg123's functions, as ``flac(for:)``.
    static func mpg123(for path: String) throws -> ILMPG123Functions {
        guard let functions = il_mpg123_functions() else {
            throw unavailable(path, "MP3", il_mpg123_error())
        }
        return functions.pointee
    }

    /// libopusfile's functions, as ``flac(for:)``.
    static func opusFile(for path: String) throws -> ILOpusFileFunctions {
        guard let functions = il_opusfile_functions() else {
            throw unavailable(path, "Opus", il_opusfile_error())
        }
        return functions.pointee
    }

    /// The name libFLAC gives `value` in one of its name tables (`table`, indexed by the enum's
    /// raw value).
    static func flacName(_ table: UnsafePointer<UnsafePointer<CChar>?>, _ value: UInt32) -> String {
        table[Int(value)].map { String(cString: $0) } ?? "status \(value)"
    }

    private static func unavailable(_ path: String, _ format: String, _ reason: UnsafePointer<CChar>?) -> InterludeError {
        InterludeError(.unsupportedFormat, "\(path): \(format) cannot be decoded here (\(reason.map { String(cString: $0) } ?? "its library could not be loaded"))")
    }
}
