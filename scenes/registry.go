package scenes

import "locksim/content"

// registry is the course's scenes in course order, each by its id and the
// function that builds it, so that a start that plays one scene (Find)
// builds that one alone rather than all of them (a sixth of -plain -scene
// race's own time went to building every scene for each lookup). It is
// never written. TestRegistryIDs checks each id against the scene built.
var registry = [...]struct {
	id    string
	build func() *Scene
}{
	{"race", raceScene},
	{"options", optionsScene}, {"crash-gap", crashGapScene}, {"claim-lease", claimLeaseScene},
	{"release", releaseScene}, {"gc-pause", gcPauseScene}, {"fencing", fencingScene},
	{"timeout", timeoutScene}, {"extend", extendScene}, {"lost-reply", lostReplyScene}, {"reentrant", reentrantScene}, {"key-naming", keyNamingScene},
	{"redlock", redlockScene}, {"choose", chooseScene},
}

// All returns the scenes in course order. Each call builds fresh values, so
// nothing here is shared mutable state.
func All() []*Scene {
	all := make([]*Scene, len(registry))
	for i, r := range registry {
		all[i] = r.build()
	}
	return all
}

// IDs returns the scenes' ids in course order, building none of them.
func IDs() []string {
	ids := make([]string, len(registry))
	for i, r := range registry {
		ids[i] = r.id
	}
	return ids
}

// Find returns the scene with the given id, freshly built, or nil.
func Find(id string) *Scene {
	for _, r := range registry {
		if r.id == id {
			return r.build()
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
