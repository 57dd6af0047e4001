package job

import (
	"trackink/kernels/device"
	"trackink/kernels/gpu"
	"trackink/knn"
)

// DeviceLinkers returns, for `bench --knn --backend LIST`, the device link updates to time
// beside knn's search backends (knn.RunBenchmark): one for emu and one for cuda in LIST
// (auto as Place resolves it); cpu adds none, since knn's backends are the CPU's.
func DeviceLinkers(backends []string) ([]knn.BenchLinker, error) {
	var out []knn.BenchLinker
	for _, b := range backends {
		p, err := Place(b, device.Probe)
		if err != nil {
			return nil, err
		}
		switch p.Name() {
		case "emu":
			out = append(out, knn.BenchLinker{Name: "emu",
				Note: "the device's link kernels emulated on this CPU, one thread after another: CPU time, not a GPU figure",
				New: func(o knn.Options) (knn.Linker, error) {
					return gpu.NewLinkGraph(device.NewEmu(device.EmuOptions{}), o)
				}})
		case "cuda":
			out = append(out, knn.BenchLinker{Name: "cuda",
				Note: "the device's link kernels on GPU 0: points uploaded, graph launched, finished (nothing read back)",
				New: func(o knn.Options) (knn.Linker, error) {
					d, err := device.OpenCUDA(0)
					if err != nil {
						return nil, err
					}
					return gpu.NewLinkGraph(d, o)
				}})
		}
	}
	return out, nil
}
