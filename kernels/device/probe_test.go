package device

import "testing"

// TestProbe runs the probe for real. On the CI machine (driver library installed, no GPU)
// it must report the driver, a failed cuInit and no devices; elsewhere it checks that the
// report is consistent.
func TestProbe(t *testing.T) {
	r := Probe()
	t.Logf("%+v", r)
	if r.Built != CUDABuilt {
		t.Errorf("Built = %v in a binary where CUDABuilt = %v", r.Built, CUDABuilt)
	}
	if r.Usable() && r.Problem != "" || !r.Usable() && r.Problem == "" {
		t.Errorf("Usable %v with problem %q", r.Usable(), r.Problem)
	}
	if !r.Driver && len(r.Devices) > 0 {
		t.Error("devices without a driver")
	}
	if r.Driver && r.InitResult != 0 && len(r.Devices) > 0 {
		t.Error("devices although cuInit failed")
	}
}
