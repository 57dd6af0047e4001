//go:build !cuda

package device

import "errors"

// CUDABuilt reports whether this binary has the CUDA device (build with -tags cuda after
// kernels/build.sh).
const CUDABuilt = false

// ErrNoCUDA is OpenCUDA's error in a binary built without the cuda tag.
var ErrNoCUDA = errors.New("this binary was built without CUDA (make build-cuda, on a machine with the CUDA toolkit)")

// OpenCUDA returns ErrNoCUDA: this binary has no CUDA device.
func OpenCUDA(ordinal int) (Device, error) { return nil, ErrNoCUDA }
