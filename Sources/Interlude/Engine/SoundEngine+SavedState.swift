extension SoundEngine {
    /// Puts back what a ``SavedState`` saved, so a game picks up where the player left off: the
    /// listener, the group gains, the game parameters' values and the mix snapshots' intensities
    /// (make them first, by loading the same cue bank, say), each track at its saved frame (playing if it was playing or
    /// held by an interruption, otherwise loaded and paused there) and each looping voice at its
    /// frame (its sound loaded again from its path; a cue's voice as that cue's own, following
    /// its curves, when the cue has been made).
    ///
    /// Restoring does not stop what already plays: call it on a fresh engine. Each track and
    /// voice is restored on its own: one that fails (a file gone since the snapshot was saved, a
    /// frame past the end of a shorter file) is skipped, the rest are restored, and then the call
    /// throws an error with the first failure's code whose message names every item that could
    /// not be restored. A missing or corrupt snapshot file is ``SavedState/read(from:)``'s
    /// `.badSavedState`: the game then starts fresh. Any thread.
    public func restore(_ state: SavedState) throws {
        try SavedStateRestore(engine: self).run(state)
    }
}
