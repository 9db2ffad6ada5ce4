/// Shrinks a failing sequence of steps to a minimal one that still fails: first drops runs of
/// steps, halving the run length down to single steps (delta debugging), then replaces each step
/// by a simpler one, and repeats both until neither finds a smaller failing sequence.
struct SequenceShrinker<Step> {
    /// How a step gets simpler, simplest first.
    let simplifications: (Step) -> [Step]
    /// The sequence still fails.
    let fails: ([Step]) throws -> Bool

    /// The minimal failing sequence found, and how many candidates were run to find it.
    func shrink(_ failing: [Step]) throws -> (steps: [Step], attempts: Int) {
        var current = failing
        var attempts = 0
        var progressed = true
        while progressed {
            progressed = false
            var chunk = max(1, current.count / 2)
            while chunk >= 1 {
                var start = 0
                while start < current.count {
                    var candidate = current
                    candidate.removeSubrange(start..<min(current.count, start + chunk))
                    attempts += 1
                    if try fails(candidate) {
                        current = candidate
                        progressed = true
                    } else {
                        start += chunk
                    }
                }
                chunk /= 2
            }
            for index in current.indices {
                for simpler in simplifications(current[index]) {
                    var candidate = current
                    candidate[index] = simpler
                    attempts += 1
                    if try fails(candidate) {
                        current = candidate
                        progressed = true
                        break
                    }
                }
            }
        }
        return (current, attempts)
    }
}
