/// Decides when the audio server's death is the engine's device loss: when the connection to
/// the server ends while the engine's own stream was on it (OpenAL Soft then plays through that
/// server). A server the engine does not play to (ALSA, the null backend) may come and go
/// without touching the device.
struct ServerLossWatcher {
    /// This process had a stream on the server, at the last look.
    private var ownStreamOnServer = false

    /// Takes the server's current sink inputs. The table the connection reports after a loss is
    /// empty, and comes after the loss itself.
    mutating func update(_ sinkInputs: [UInt32: PulseSinkInput]) {
        ownStreamOnServer = sinkInputs.values.contains(where: \.isOwn)
    }

    /// The connection ended: true when that takes the engine's device with it.
    func isDeviceLost(connectionWasReady: Bool) -> Bool {
        connectionWasReady && ownStreamOnServer
    }
}
