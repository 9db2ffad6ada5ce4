/// Predicts when a running device's mixer mixes next, from its clock (ALC_SOFT_device_clock)
/// read at known wall times, so that the driver can update just before each mix.
///
/// Why: OpenAL Soft mixes a whole period at a time (1,024 frames, 23 ms, on the null backend),
/// and a change sent between two mixes is heard at the second either way. An update every
/// 10 ms sends most changes twice or more per mix and wakes a thread 100 times a second; an
/// update just before each mix sends each change once, is in time for the mix, and wakes the
/// thread once per period.
///
/// The clock counts the frames mixed, so it steps by one period at each mix, at the wall time
/// the mix ran. A mix runs no earlier than it is due, so the lowest `wall - clock` seen is the
/// wall time of a clock reading of 0 for a mix on time: each mix is due at that plus its clock.
/// An update aimed too late reads the clock just after the mix, and so lowers the estimate at
/// once. An estimate too early is kept (the updates are early, but still before their mixes)
/// until a reading is one and a half periods later than any mix could run: the clock fell
/// behind (a server that skipped a stall, a sound card slower than the system clock), and the
/// estimate starts again from there. The period is the last step of the clock within 10% of
/// `1 / ALC_REFRESH`, and that until one is seen.
struct MixerPace {
    /// Seconds between mixes by ALC_REFRESH, which is rounded to whole updates a second.
    private let refreshPeriodSeconds: Double
    /// Seconds between mixes.
    private var periodSeconds: Double
    /// The lowest `wall - clock` seen since the estimate began, nil before the first reading.
    private var offsetSeconds: Double?
    private var lastClockSeconds = 0.0

    /// A pace for a mixer that updates `updatesPerSecond` times a second (ALC_REFRESH).
    init(updatesPerSecond: Double) {
        refreshPeriodSeconds = 1 / max(1, updatesPerSecond)
        periodSeconds = refreshPeriodSeconds
    }

    /// The mixer's period, in seconds, as known now.
    var mixPeriodSeconds: Double { periodSeconds }

    /// Takes a reading of the device clock at a wall time (both in seconds).
    mutating func observe(clockSeconds: Double, wallSeconds: Double) {
        if let offsetSeconds {
            let step = clockSeconds - lastClockSeconds
            // One mix's step, exact where ALC_REFRESH is rounded; a catch-up, or readings a mix
            // apart or more, step several periods at once, and a backend that mixes what its
            // server asks for steps by other amounts.
            if step >= refreshPeriodSeconds * 0.9 && step <= refreshPeriodSeconds * 1.1 { periodSeconds = step }
            let sample = wallSeconds - clockSeconds
            self.offsetSeconds = sample > offsetSeconds + 1.5 * periodSeconds ? sample : min(offsetSeconds, sample)
        } else {
            offsetSeconds = wallSeconds - clockSeconds
        }
        lastClockSeconds = clockSeconds
    }

    /// Seconds from `wallSeconds` until `marginSeconds` before the next mix due at least half a
    /// period after `wallSeconds` (so an update just before one mix aims at the one after it):
    /// half a period to one and a half. nil before the first reading.
    func secondsUntilNextMix(wallSeconds: Double, marginSeconds: Double) -> Double? {
        guard let offsetSeconds else { return nil }
        let earliest = wallSeconds + periodSeconds / 2 + marginSeconds
        let lastDue = offsetSeconds + lastClockSeconds
        let periods = max(1, ((earliest - lastDue) / periodSeconds).rounded(.up))
        return lastDue + periods * periodSeconds - marginSeconds - wallSeconds
    }
}
