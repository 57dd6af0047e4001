package device

/*
#cgo LDFLAGS: -ldl
#include <dlfcn.h>
#include <string.h>

// The probe loads the driver library at run time, so that this binary has no link
// dependency on libcuda: it reports a missing driver instead of failing to start. The
// prototypes are cuda.h's, with int for CUresult and CUdevice.
typedef int (*tk_cuInit)(unsigned);
typedef int (*tk_cuDriverGetVersion)(int*);
typedef int (*tk_cuDeviceGetCount)(int*);
typedef int (*tk_cuDeviceGet)(int*, int);
typedef int (*tk_cuDeviceGetName)(char*, int, int);
typedef int (*tk_cuDeviceGetAttribute)(int*, int, int);

// tk_probe fills version, init (cuInit's result), count, and per device (up to max) its
// name (64 bytes each) and compute capability. It returns 0, or -1 when libcuda.so.1 or
// one of its functions is missing (err then names it).
static int tk_probe(int* version, int* init, int* count, char* names, int* major, int* minor, int max, char* err, int errLen) {
  void* h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    strncpy(err, dlerror(), errLen - 1);
    return -1;
  }
  tk_cuInit cuInit = (tk_cuInit)dlsym(h, "cuInit");
  tk_cuDriverGetVersion cuDriverGetVersion = (tk_cuDriverGetVersion)dlsym(h, "cuDriverGetVersion");
  tk_cuDeviceGetCount cuDeviceGetCount = (tk_cuDeviceGetCount)dlsym(h, "cuDeviceGetCount");
  tk_cuDeviceGet cuDeviceGet = (tk_cuDeviceGet)dlsym(h, "cuDeviceGet");
  tk_cuDeviceGetName cuDeviceGetName = (tk_cuDeviceGetName)dlsym(h, "cuDeviceGetName");
  tk_cuDeviceGetAttribute cuDeviceGetAttribute = (tk_cuDeviceGetAttribute)dlsym(h, "cuDeviceGetAttribute");
  if (!cuInit || !cuDriverGetVersion || !cuDeviceGetCount || !cuDeviceGet || !cuDeviceGetName || !cuDeviceGetAttribute) {
    strncpy(err, "libcuda.so.1 lacks a driver API function", errLen - 1);
    dlclose(h);
    return -1;
  }
  cuDriverGetVersion(version);
  *init = cuInit(0);
  *count = 0;
  if (*init == 0 && cuDeviceGetCount(count) == 0) {
    for (int i = 0; i < *count && i < max; i++) {
      int dev;
      if (cuDeviceGet(&dev, i) != 0) continue;
      cuDeviceGetName(names + 64 * i, 63, dev);
      cuDeviceGetAttribute(&major[i], 75, dev);  // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR
      cuDeviceGetAttribute(&minor[i], 76, dev);  // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR
    }
  }
  // The library stays loaded: unloading a driver after cuInit is not supported.
  return 0;
}
*/
import "C"

import "unsafe"

// Report is what Probe found: whether this binary can draw on a GPU here.
type Report struct {
	// Built: this binary has the CUDA backend (the cuda build tag).
	Built bool
	// Driver: libcuda.so.1 loaded; DriverVersion is its CUDA version (12040 = 12.4).
	Driver        bool
	DriverVersion int
	// InitResult is cuInit's CUresult: 0 success, 100 no device, 35 driver too old, ...
	InitResult int
	Devices    []GPUInfo
	// Problem says why no GPU is usable, when none is.
	Problem string
}

// GPUInfo is one CUDA device.
type GPUInfo struct {
	Name         string
	Major, Minor int // compute capability
}

// Usable reports whether the CUDA backend can run here: it is built in and a device with
// a compute capability the fatbin covers (7.5 or newer) exists.
func (r Report) Usable() bool {
	if !r.Built {
		return false
	}
	for _, d := range r.Devices {
		if d.Major*10+d.Minor >= 75 {
			return true
		}
	}
	return false
}

// Probe looks for the CUDA driver and its devices without linking against libcuda. It is
// cheap (one dlopen and cuInit) and safe on machines with no driver.
func Probe() Report {
	const max = 16
	r := Report{Built: CUDABuilt}
	var version, init, count C.int
	var names [64 * max]C.char
	var major, minor [max]C.int
	var errBuf [256]C.char
	if C.tk_probe(&version, &init, &count, &names[0], &major[0], &minor[0], max, &errBuf[0], C.int(len(errBuf))) != 0 {
		r.Problem = "no NVIDIA driver: " + C.GoString(&errBuf[0])
		return r
	}
	r.Driver, r.DriverVersion, r.InitResult = true, int(version), int(init)
	for i := 0; i < int(count) && i < max; i++ {
		r.Devices = append(r.Devices, GPUInfo{Name: C.GoString((*C.char)(unsafe.Pointer(&names[64*i]))), Major: int(major[i]), Minor: int(minor[i])})
	}
	switch {
	case init != 0:
		r.Problem = initProblem(int(init))
	case len(r.Devices) == 0:
		r.Problem = "the driver reports no CUDA device"
	case !r.Usable() && r.Built:
		r.Problem = "no device of compute capability 7.5 or newer"
	case !r.Built:
		r.Problem = "this binary was built without CUDA (-tags cuda)"
	}
	return r
}
