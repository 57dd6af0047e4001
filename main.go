// Command trackink renders tracking overlays (boxes, links between nearby tracked points,
// curves, labels) onto images and videos, runs the golden-image regression tests, and
// benchmarks the renderer. Run `trackink help` for the commands; package cli is the
// command line, and its doc follows one frame through the packages.
package main

import (
	"os"

	"trackink/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
}
