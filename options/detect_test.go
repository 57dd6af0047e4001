package options

import "testing"

// Networks: a single-thread network a CPU up to 8, the CPUs shared out beyond.
func TestNetworks(t *testing.T) {
	for _, tc := range []struct{ cpus, networks, threads int }{
		{0, 1, 1}, {1, 1, 1}, {2, 2, 1}, {8, 8, 1}, {12, 8, 1}, {16, 8, 2}, {64, 8, 8},
	} {
		if n, th := Networks(tc.cpus); n != tc.networks || th != tc.threads {
			t.Errorf("%d CPUs: %d networks of %d threads, want %d of %d", tc.cpus, n, th, tc.networks, tc.threads)
		}
	}
}
