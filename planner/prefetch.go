package planner

// Prefetch builds the vocabulary every Planner shares in the background,
// so a process that answers once builds it on its other core while it
// opens its store; New then finds it built, or waits for it.
func Prefetch() { go sharedVocabulary() }
