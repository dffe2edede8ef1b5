package scenes

// All returns the scenes in course order. Each call builds fresh values, so
// nothing here is shared mutable state.
func All() []*Scene {
	return []*Scene{
		raceScene(),
		optionsScene(), crashGapScene(),
		releaseScene(), gcPauseScene(), fencingScene(),
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
