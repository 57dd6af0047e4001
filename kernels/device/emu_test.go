package device

import "testing"

// TestEmuEnforcesCaptureRules: the emulated device refuses what CUDA refuses while a stream
// captures (host copies, synchronisation, timing events), records launches instead of
// running them, and checks copies and launches against its allocations and kernels.
func TestEmuEnforcesCaptureRules(t *testing.T) {
	d := NewEmu(EmuOptions{Workers: 1})
	defer d.Close()
	buf, err := d.Alloc(paramsSize)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.BeginCapture(); err != nil {
		t.Fatal(err)
	}
	if d.CopyIn(buf, []byte{1}) == nil || d.CopyOut(make([]byte, 1), buf) == nil || d.Sync() == nil || d.AfterLegacy() == nil {
		t.Error("copies, Sync or AfterLegacy during capture did not fail")
	}
	if err := d.Launch("tk_begin", Dim3{1, 1, 1}, Dim3{1, 1, 1}, buf); err != nil {
		t.Fatal(err)
	}
	ev, err := d.NewEvent()
	if err != nil {
		t.Fatal(err)
	}
	if d.Record(ev) == nil {
		t.Error("an event recorded during capture did not fail")
	}
	gr, err := d.EndCapture()
	if err != nil {
		t.Fatal(err)
	}
	if ops := d.graphs[gr]; len(ops) != 1 || ops[0].kernel != "tk_begin" {
		t.Errorf("graph holds %+v, want the one launch of tk_begin", ops)
	}
	d.FreeGraph(gr)
	if d.LaunchGraph(gr) == nil {
		t.Error("launching a freed graph did not fail")
	}
	if d.CopyIn(buf+Ptr(paramsSize)-1, []byte{1, 2}) == nil {
		t.Error("a copy past the end of an allocation did not fail")
	}
	if d.Launch("tk_nope", Dim3{1, 1, 1}, Dim3{1, 1, 1}, buf) == nil {
		t.Error("launching an unknown kernel did not fail")
	}
	if d.Launch("tk_begin", Dim3{1, 1, 1}, Dim3{1, 1, 1}, buf+1) == nil {
		t.Error("a launch whose parameter block runs past its allocation did not fail")
	}
}
