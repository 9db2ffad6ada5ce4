/// What the session resumes when an interruption ends.
public enum ResumePolicy: String, Sendable, Codable, CaseIterable {
    /// A game with no playback controls: what was playing always resumes, whatever the end says.
    case alwaysResume
    /// An app with playback controls: it resumes only when the end carries `shouldResume`.
    case honorShouldResume
}
