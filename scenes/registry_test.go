package scenes

import "testing"

// TestRegistryIDs: the registry names each scene by the id the scene it
// builds carries, so Find and IDs agree with All, scene by scene.
func TestRegistryIDs(t *testing.T) {
	all, ids := All(), IDs()
	if len(all) != len(ids) {
		t.Fatalf("All has %d scenes, IDs %d", len(all), len(ids))
	}
	seen := map[string]bool{}
	for i, sc := range all {
		if ids[i] != sc.ID {
			t.Errorf("registry entry %d is named %q, but builds scene %q", i, ids[i], sc.ID)
		}
		if seen[sc.ID] {
			t.Errorf("scene %q is in the registry twice", sc.ID)
		}
		seen[sc.ID] = true
		if f := Find(sc.ID); f == nil || f.ID != sc.ID {
			t.Errorf("Find(%q) = %v", sc.ID, f)
		}
	}
	if Find("no-such-scene") != nil {
		t.Error("Find of an unknown id found a scene")
	}
}
