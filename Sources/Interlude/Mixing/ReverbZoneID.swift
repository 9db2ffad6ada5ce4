/// A reverb zone: an EFX reverb that voices send to, by themselves
/// (``VoiceParameters/reverbZone``) or through their group
/// (``SoundEngine/setReverbZone(_:of:)``). Made by
/// ``SoundEngine/makeReverbZone(named:preset:)``: a misspelt zone is an error, never silence.
public struct ReverbZoneID: Hashable, Sendable, Codable, CustomStringConvertible {
    private let zoneName: String

    init(name: String) {
        zoneName = name
    }

    /// The zone's name.
    public var name: String { zoneName }
    /// The zone's name.
    public var description: String { zoneName }

    /// Encoded as its name alone.
    public init(from decoder: any Decoder) throws {
        zoneName = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(zoneName)
    }
}
