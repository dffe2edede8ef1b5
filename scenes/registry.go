package scenes

import "locksim/content"

// All returns the scenes in course order. Each call builds fresh values, so
// nothing here is shared mutable state.
func All() []*Scene {
	return []*Scene{
		raceScene(),
		optionsScene(), crashGapScene(), claimLeaseScene(),
		releaseScene(), gcPauseScene(), fencingScene(),
		timeoutScene(), extendScene(), lostReplyScene(), reentrantScene(), keyNamingScene(),
		redlockScene(), chooseScene(),
	}
}

// Find returns the scene with the given id, or nil.
func Find(id string) *Scene {
	for _, s := range All() {
		if s.ID == id {
			return s
		}
	}
	return nil
}

// Heading returns the scene's dive and title, read from its course text.
func Heading(id string) (dive, title string) {
	t, err := content.Load(id)
	if err != nil {
		return "", id
	}
	return t.Get("dive"), t.Get("title")
}
