package shown

import (
	"testing"

	"locksim/sim/simtest/testmain"
)

func TestMain(m *testing.M) { testmain.Run(m) }
