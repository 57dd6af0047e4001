module trackink

go 1.26.0

require (
	github.com/DataIntelligenceCrew/go-faiss v0.2.0
	github.com/asticode/go-astiav v0.16.0
	github.com/spf13/pflag v1.0.10
	golang.org/x/image v0.47.0
	golang.org/x/sys v0.49.0
	golang.org/x/text v0.43.0
	gorgonia.org/cu v0.9.6
)

require (
	github.com/asticode/go-astikit v0.42.0 // indirect
	github.com/google/uuid v1.1.1 // indirect
	github.com/pkg/errors v0.9.1 // indirect
	github.com/yalue/onnxruntime_go v1.27.0 // indirect
)
