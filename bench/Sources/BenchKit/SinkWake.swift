/// How a private PulseAudio server's null sink "spk" is made to run on 10 ms blocks, as a
/// desktop's sink runs while anything plays: through the server's set-up socket, a silent 10 ms
/// stream plays into it, the sink is started over with that stream (so it takes its blocks),
/// and only then is the clients' socket opened. The engine's tests keep the same steps
/// (Tests/InterludeTests/Support/SinkWake.swift), in a package that cannot import this one.
public enum SinkWake {
    /// The silent stream that keeps the sink awake, while the server runs.
    public static let keepAwakeCommand = ["pacat", "--raw", "--format=s16le", "--rate=48000", "--channels=2",
                                          "--latency-msec=10", "--client-name=keep-awake", "/dev/zero"]

    /// pactl's arguments that list the sink's streams: empty until the keep-awake stream is there.
    public static let streamsQuery = ["list", "short", "sink-inputs"]

    /// pactl's arguments, in order, once the stream is there: the sink started over, then the
    /// clients' socket at `clientsSocket` opened.
    public static func restart(clientsSocket: String) -> [[String]] {
        [["suspend-sink", "spk", "1"],
         ["suspend-sink", "spk", "0"],
         ["load-module", "module-native-protocol-unix", "auth-anonymous=1", "socket=\(clientsSocket)"]]
    }
}
