package cli

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"

	"trackink/detect"
	"trackink/kernels/device"
	"trackink/knn"
	"trackink/options"
	"trackink/video"

	"github.com/spf13/pflag"
)

const doctorExamples = `Examples:
  trackink doctor

  # Also FFmpeg's configure line and the CUDA driver's own result codes, for a bug report:
  trackink doctor -v

Exit status: 0, also where the detector's runtime or model is absent (the other modes need
neither); 1 where one is found but --detect people and objects cannot use it (doctor loads
both and runs the network once; its last line says what is wrong).`

// doctorCommand reports what this machine and this binary can do.
func doctorCommand(stderr io.Writer) (*pflag.FlagSet, runFunc) {
	fs := options.NewFlagSet("doctor", "[-v]", doctorExamples, stderr)
	verbose := fs.BoolP("verbose", "v", false, "also FFmpeg's configure line and the CUDA driver's result codes")
	return fs, func(args []string, stdout io.Writer) error {
		if err := options.Parse(fs, args); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "trackink %s\n", version())
		fmt.Fprintf(stdout, "CPU: %d threads (%s/%s)\n", runtime.NumCPU(), runtime.GOOS, runtime.GOARCH)
		r := device.Probe()
		built := "no (built without -tags cuda)"
		if r.Built {
			built = "yes"
		}
		fmt.Fprintf(stdout, "CUDA backend in this binary: %s\n", built)
		driver := fmt.Sprintf("version %d.%d", r.DriverVersion/1000, r.DriverVersion%1000/10)
		switch {
		case !r.Driver:
			// The dlopen error says where the library was looked for: for -v.
			driver = "none, no NVIDIA driver"
			if *verbose {
				driver = "none, " + r.Problem
			}
		case r.InitResult != 0:
			driver = r.Problem
			if *verbose {
				driver += fmt.Sprintf("; libcuda version %d.%d, cuInit result %d", r.DriverVersion/1000, r.DriverVersion%1000/10, r.InitResult)
			}
		}
		fmt.Fprintf(stdout, "CUDA driver: %s\n", driver)
		for i, d := range r.Devices {
			fmt.Fprintf(stdout, "GPU %d: %s, compute capability %d.%d\n", i, d.Name, d.Major, d.Minor)
		}
		if r.Usable() {
			fmt.Fprintln(stdout, "--backend auto renders on: cuda")
		} else {
			fmt.Fprintf(stdout, "--backend auto renders on: cpu (%s)\n", r.Problem)
		}
		ff := video.FFmpeg()
		fmt.Fprintf(stdout, "FFmpeg: %s\n", ff)
		if *verbose {
			fmt.Fprintf(stdout, "FFmpeg configuration: %s\n", ff.Configuration)
		}
		fmt.Fprint(stdout, "FFmpeg codecs:")
		for _, c := range video.Codecs() {
			mark := "-"
			if c.Present {
				mark = "+"
			}
			fmt.Fprintf(stdout, " %s%s", mark, c.Name)
		}
		fmt.Fprintln(stdout, "\n  (+ compiled in; NVDEC/NVENC still need a GPU that has them: H100/H200/A100 have no NVENC)")
		fmt.Fprintf(stdout, "Link search built in: %s\n", strings.Join(knn.Backends(), ", "))
		runtimeLine, modelLine, ready, broken := detectorReport()
		fmt.Fprintf(stdout, "ONNX Runtime (the detector's): %s\n", runtimeLine)
		fmt.Fprintf(stdout, "Detector model: %s\n", modelLine)
		fmt.Fprintf(stdout, "--detect people, objects: %s\n", ready)
		return broken
	}
}

// detectorReport says where the detector's runtime library and model are, as --detect
// people would find them (their variables, beside the binary, the user's data directory),
// or what is wrong, and whether --detect people and objects can run: where both are found
// it loads them as --detect people does and runs the network once on the smallest input
// (detect.Check). It said "yes" for any two files found: a model of six bytes of text, or
// /bin/ls or libz for the runtime, and track --detect people then failed. broken is the
// error where files were found but cannot be used (doctor exits 1); absent files are
// not an error, as the other modes need neither.
func detectorReport() (runtimeLine, modelLine, ready string, broken error) {
	lib, libErr := detect.LocateRuntime("")
	runtimeLine = lib
	if libErr != nil {
		runtimeLine = "none: " + libErr.Error()
	}
	model, modelErr := detect.LocateModel("")
	modelLine = model
	if modelErr != nil {
		modelLine = "none: " + modelErr.Error()
	} else if sum, err := detect.ModelDigest(model); err != nil {
		modelLine += " (unreadable: " + err.Error() + ")"
	} else if sum == detect.ModelSHA256 {
		modelLine += " (YOLOX-Nano, the export trackink is tested with)"
	} else {
		modelLine += " (sha256 " + sum + ": not the YOLOX-Nano export trackink is tested with)"
	}
	switch {
	case libErr != nil && modelErr != nil:
		ready = "no: neither the runtime nor the model is here (above)"
	case libErr != nil:
		ready = "no: no runtime (above)"
	case modelErr != nil:
		ready = "no: no model (above)"
	default:
		o := detect.DefaultOptions()
		o.Model, o.Runtime, o.Threads = model, lib, 1
		if err := detect.Check(o); err != nil {
			msg := strings.TrimPrefix(err.Error(), "detect: ")
			return runtimeLine, modelLine, "no: " + msg, errors.New("--detect people and objects cannot run (above)")
		}
		ready = "yes: the runtime loads the model and runs it (the other modes need neither)"
	}
	return runtimeLine, modelLine, ready, nil
}
