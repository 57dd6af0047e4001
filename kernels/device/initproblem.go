package device

import "fmt"

// initProblem words a failed cuInit for people who do not know CUDA's result codes: 100,
// the common one, is what libcuda says where it is installed but no NVIDIA kernel driver or
// GPU answers (a container without the GPU passed in, a machine without one).
func initProblem(result int) string {
	switch result {
	case 100:
		return "no NVIDIA driver or GPU answers: the CUDA library is installed but finds no device"
	case 35:
		return "the NVIDIA driver is too old for this CUDA library"
	case 999:
		return "the NVIDIA driver failed to start (see dmesg)"
	}
	return fmt.Sprintf("the NVIDIA driver failed to start (CUDA error %d)", result)
}
