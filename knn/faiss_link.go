//go:build faiss

package knn

// go-faiss declares only -lfaiss_c. FAISS's C API library is static (built by
// scripts/setup.sh --faiss), so the link also needs the C++ library it wraps and that library's own
// dependencies, in this order; naming them here lets plain `go build` and `go test` link
// without CGO_LDFLAGS.

// #cgo LDFLAGS: -L/usr/local/lib -lfaiss_c -lfaiss -llapack -lblas -lgomp -lstdc++ -lm
import "C"
