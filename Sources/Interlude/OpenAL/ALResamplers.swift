import COpenAL

/// The resamplers a context offers (AL_SOFT_source_resampler), looked up by name. The context
/// must be current.
enum ALResamplers {
    /// The context's resamplers by index (AL_NUM_RESAMPLERS_SOFT, then `alGetStringiSOFT` for
    /// each), or nil without AL_SOFT_source_resampler.
    static func names(using extensions: ALExtensions) throws -> [String]? {
        guard alIsExtensionPresent("AL_SOFT_source_resampler") != 0, let getString = extensions.getResamplerString else {
            _ = alGetError()
            return nil
        }
        let count = alGetInteger(AL_NUM_RESAMPLERS_SOFT)
        try ALCheck.al("alGetInteger(AL_NUM_RESAMPLERS_SOFT)")
        return try (0..<max(0, count)).map { index in
            let name = getString(AL_RESAMPLER_NAME_SOFT, index)
            try ALCheck.al("alGetStringiSOFT(AL_RESAMPLER_NAME_SOFT)")
            return name.map { String(cString: $0) } ?? ""
        }
    }

    /// The name of the resampler a source gets when none is set (AL_DEFAULT_RESAMPLER_SOFT), or
    /// nil without AL_SOFT_source_resampler: "Linear" in 1.19, "Cubic Spline" in 1.24.2.
    static func defaultName(using extensions: ALExtensions) throws -> String? {
        guard let names = try names(using: extensions) else { return nil }
        let index = Int(alGetInteger(AL_DEFAULT_RESAMPLER_SOFT))
        try ALCheck.al("alGetInteger(AL_DEFAULT_RESAMPLER_SOFT)")
        return names.indices.contains(index) ? names[index] : nil
    }

    /// The index of `resampler` among the context's resamplers (nil: OpenAL Soft's default, no
    /// call made). Throws `.unsupportedFormat` when the context lacks AL_SOFT_source_resampler
    /// or a resampler by that name.
    static func index(of resampler: Resampler?, using extensions: ALExtensions) throws -> Int32? {
        guard let resampler else { return nil }
        guard let names = try names(using: extensions) else {
            throw InterludeError(.unsupportedFormat, "resampler \(resampler.rawValue): this OpenAL has no AL_SOFT_source_resampler")
        }
        guard let index = names.firstIndex(where: resampler.openALNames.contains) else {
            throw InterludeError(.unsupportedFormat, "resampler \(resampler.rawValue): OpenAL Soft offers only \(names.joined(separator: ", "))")
        }
        return Int32(index)
    }
}
