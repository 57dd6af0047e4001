//go:build cuda

package kernels

import _ "embed"

// Fatbin is the kernels compiled by nvcc for sm_75 to sm_90 plus compute_90 PTX (build.sh
// writes kernels.fatbin; it is generated, not in git). Only the cuda build embeds it.
//
//go:embed kernels.fatbin
var Fatbin []byte
