//go:build !cuda

package kernels

import (
	"errors"

	"trackink/render"
)

// CUDABuilt reports whether this binary has the CUDA backend (build with -tags cuda after
// kernels/build.sh).
const CUDABuilt = false

// ErrNoCUDA is NewCUDA's error in a binary built without the cuda tag.
var ErrNoCUDA = errors.New("kernels: this binary was built without CUDA (go build -tags cuda, after kernels/build.sh)")

// NewCUDA returns ErrNoCUDA: this binary has no CUDA backend.
func NewCUDA(render.Options) (render.Backend, error) { return nil, ErrNoCUDA }
