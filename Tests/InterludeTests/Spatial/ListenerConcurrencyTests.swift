import Foundation
import Testing
@testable import Interlude

/// updateListener is one read-modify-write under the engine's lock.
extension EngineSuites {
    @Suite struct ListenerConcurrencyTests {
        @Test("8 threads moving the listener at once lose none of each other's changes")
        func concurrentUpdatesAreNotLost() throws {
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            let threadCount = 8, stepsPerThread = 2_000
            DispatchQueue.concurrentPerform(iterations: threadCount) { _ in
                for _ in 0..<stepsPerThread {
                    do {
                        try engine.changeListener { $0.position.x += 1 }
                    } catch {
                        Issue.record(error)
                    }
                }
            }
            #expect(engine.listener.position.x == Float(threadCount * stepsPerThread))
        }
    }
}
