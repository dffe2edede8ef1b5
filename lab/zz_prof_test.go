package lab

import (
	"context"
	"os"
	"testing"
)

func TestZZProf(t *testing.T) {
	d := os.Getenv("PROFDIR")
	if d == "" {
		t.Skip()
	}
	l, err := Load(d)
	if err != nil {
		t.Fatal(err)
	}
	l.Policy.Faults = AllFaults()
	l.Policy.Properties = []Property{NoForeignRelease, DeadlockFreedom}
	rep, err := Check(context.Background(), l, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s %v", rep.Summary(), rep.Elapsed)
}
