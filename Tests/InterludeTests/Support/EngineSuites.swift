import Testing

/// Every suite that opens an OpenAL device nests here: the current context is process-global.
@Suite(.serialized) struct EngineSuites {}
