import COpenAL

/// OpenAL Soft's extension entry points, loaded at run time with `alcGetProcAddress`, the
/// portable way: each is nil where the library or device lacks the extension.
struct ALExtensions {
    /// `alcLoopbackOpenDeviceSOFT` (ALC_SOFT_loopback).
    let loopbackOpenDevice: LPALCLOOPBACKOPENDEVICESOFT?
    /// `alcIsRenderFormatSupportedSOFT` (ALC_SOFT_loopback).
    let isRenderFormatSupported: LPALCISRENDERFORMATSUPPORTEDSOFT?
    /// `alcRenderSamplesSOFT` (ALC_SOFT_loopback).
    let renderSamples: LPALCRENDERSAMPLESSOFT?
    /// `alcDevicePauseSOFT` (ALC_SOFT_pause_device).
    let devicePause: LPALCDEVICEPAUSESOFT?
    /// `alcDeviceResumeSOFT` (ALC_SOFT_pause_device).
    let deviceResume: LPALCDEVICERESUMESOFT?
    /// `alcGetStringiSOFT` (ALC_SOFT_HRTF): HRTF names.
    let getStringi: LPALCGETSTRINGISOFT?
    /// `alGetStringiSOFT` (AL_SOFT_source_resampler): resampler names. Whether the context has
    /// the extension is asked separately, with the context current (``ALResamplers/names(using:)``).
    let getResamplerString: LPALGETSTRINGISOFT?
    /// `alcGetInteger64vSOFT` (ALC_SOFT_device_clock): the device's clock, in nanoseconds of
    /// audio the mixer has produced.
    let getInteger64v: LPALCGETINTEGER64VSOFT?
    /// `alDeferUpdatesSOFT` (AL_SOFT_deferred_updates): holds the context's property changes
    /// back until ``processUpdates``, which hands them to the mixer all at once. Whether the
    /// context has the extension is asked separately, with the context current
    /// (``ALContext/deferringUpdates(_:)``).
    let deferUpdates: LPALDEFERUPDATESSOFT?
    /// `alProcessUpdatesSOFT` (AL_SOFT_deferred_updates).
    let processUpdates: LPALPROCESSUPDATESSOFT?
    /// `alBufferStorageSOFT`, `alMapBufferSOFT` and `alUnmapBufferSOFT` (AL_SOFT_map_buffer,
    /// which OpenAL Soft 1.19 offers as AL_SOFTX_map_buffer): a buffer's storage allocated
    /// without data, then written and read in place. nil unless all three are there.
    let bufferMapping: ALBufferMapping?
    /// `alcSetThreadContext` (ALC_EXT_thread_local_context): a context current for the calling
    /// thread only, which OpenAL Soft finds without taking its process-wide list lock.
    let setThreadContext: PFNALCSETTHREADCONTEXTPROC?
    /// `alcGetThreadContext` (ALC_EXT_thread_local_context).
    let getThreadContext: PFNALCGETTHREADCONTEXTPROC?
    /// `alcReopenDeviceSOFT` (ALC_SOFT_reopen_device, OpenAL Soft 1.22 and later): moves a
    /// playback device to another output with its context, sources and buffers kept. 1.19 has
    /// none, and 1.19's headers lack its type.
    let reopenDevice: ReopenDevice?
    typealias ReopenDevice = @convention(c) (OpaquePointer?, UnsafePointer<ALCchar>?, UnsafePointer<ALCint>?) -> ALCboolean

    /// Loads the entry points the library exports for `device` (nil: the ones that need no device).
    init(device: OpaquePointer?) {
        func load<T>(_ extensionName: String, _ functionName: String, as type: T.Type) -> T? {
            guard alcIsExtensionPresent(device, extensionName) != 0,
                  let pointer = alcGetProcAddress(device, functionName) else { return nil }
            _ = alcGetError(device)
            return unsafeBitCast(pointer, to: type)
        }
        loopbackOpenDevice = load("ALC_SOFT_loopback", "alcLoopbackOpenDeviceSOFT", as: LPALCLOOPBACKOPENDEVICESOFT.self)
        isRenderFormatSupported = load("ALC_SOFT_loopback", "alcIsRenderFormatSupportedSOFT", as: LPALCISRENDERFORMATSUPPORTEDSOFT.self)
        renderSamples = load("ALC_SOFT_loopback", "alcRenderSamplesSOFT", as: LPALCRENDERSAMPLESSOFT.self)
        devicePause = load("ALC_SOFT_pause_device", "alcDevicePauseSOFT", as: LPALCDEVICEPAUSESOFT.self)
        deviceResume = load("ALC_SOFT_pause_device", "alcDeviceResumeSOFT", as: LPALCDEVICERESUMESOFT.self)
        getStringi = load("ALC_SOFT_HRTF", "alcGetStringiSOFT", as: LPALCGETSTRINGISOFT.self)
        reopenDevice = load("ALC_SOFT_reopen_device", "alcReopenDeviceSOFT", as: ReopenDevice.self)
        getInteger64v = load("ALC_SOFT_device_clock", "alcGetInteger64vSOFT", as: LPALCGETINTEGER64VSOFT.self)
        let setThreadContext = load("ALC_EXT_thread_local_context", "alcSetThreadContext", as: PFNALCSETTHREADCONTEXTPROC.self)
        let getThreadContext = load("ALC_EXT_thread_local_context", "alcGetThreadContext", as: PFNALCGETTHREADCONTEXTPROC.self)
        self.setThreadContext = getThreadContext != nil ? setThreadContext : nil
        self.getThreadContext = setThreadContext != nil ? getThreadContext : nil
        getResamplerString = alGetProcAddress("alGetStringiSOFT").map { unsafeBitCast($0, to: LPALGETSTRINGISOFT.self) }
        let deferUpdates = alGetProcAddress("alDeferUpdatesSOFT").map { unsafeBitCast($0, to: LPALDEFERUPDATESSOFT.self) }
        let processUpdates = alGetProcAddress("alProcessUpdatesSOFT").map { unsafeBitCast($0, to: LPALPROCESSUPDATESSOFT.self) }
        // One without the other would leave the context deferring forever: both, or neither.
        let both = deferUpdates != nil && processUpdates != nil
        self.deferUpdates = both ? deferUpdates : nil
        self.processUpdates = both ? processUpdates : nil
        bufferMapping = ALBufferMapping.load()
    }
}
