import Foundation
import Testing
@testable import Interlude

extension EngineSuites {
    /// Which OpenAL Soft the suite runs on, and what the engine makes of it before it starts.
    @Suite struct OpenALStackTests {
        @Test("The suite runs on the OpenAL Soft release the run asked for (INTERLUDE_EXPECT_OPENAL), and says which")
        func theReleaseUnderTest() {
            print("OPENAL-STACK \(OpenALStack.name): de-click ramps \(OpenALStack.deClickFrames) frames, 16-bit steps \(OpenALStack.stepsIn16Bits)")
            if let expected = ProcessInfo.processInfo.environment["INTERLUDE_EXPECT_OPENAL"] {
                #expect("\(OpenALStack.release)" == expected, "LD_LIBRARY_PATH did not bring the library asked for")
            }
        }

        @Test("The release is read from AL_VERSION")
        func releaseStrings() {
            #expect(ALRelease(versionString: "1.1 ALSOFT 1.19.1") == ALRelease(major: 1, minor: 19, patch: 1))
            #expect(ALRelease(versionString: "1.1 ALSOFT 1.24.2") == ALRelease(major: 1, minor: 24, patch: 2))
            #expect(ALRelease(versionString: "1.1 ALSOFT 1.25.0-git") == ALRelease(major: 1, minor: 25, patch: 0))
            #expect(ALRelease(versionString: "garbage") == nil)
            #expect(ALRelease(major: 1, minor: 19, patch: 1) < .deClickRamps)
        }
    }
}
