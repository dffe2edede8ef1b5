package sim

// The version check, for sim_test.
var (
	ServerVersion = serverVersion
	AtLeast       = atLeast
)
