// `make soak`: renders SOAK_MINUTES (default 120) of game time of a busy scene offline, as fast
// as the machine allows (200 looping positional emitters and a streamed soundtrack, a random
// interruption every 10-120 s, a device loss and restore every 10 minutes, a seeded
// generator), and checks it as it goes. Exits 1 on any failed check.
//
//   Soak [--minutes N] [--emitters N] [--seed N]
import Foundation
import SoakScenario

var arguments = CommandLine.arguments.dropFirst()
var minutes = 120.0
var settings = SoakRun.Settings(gameSeconds: 0)
while let argument = arguments.popFirst() {
    guard let value = arguments.popFirst() else { fatalError("\(argument) needs a value") }
    switch argument {
    case "--minutes": minutes = Double(value)!
    case "--emitters": settings.emitterCount = Int(value)!
    case "--seed": settings.seed = UInt64(value)!
    default: fatalError("unknown argument \(argument)")
    }
}
settings.gameSeconds = minutes * 60
let report = try SoakRun(settings: settings).run { partial in
    print(String(format: "  %.0f min of game time, %.1f s of wall time, RSS %d KiB", partial.gameSeconds / 60, partial.wallSeconds,
                 SoakRun.residentBytes() / 1024))
    fflush(nil)
}
print(report)
exit(report.failures.isEmpty ? 0 : 1)
