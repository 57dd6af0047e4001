package synthclip

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"trackink/scene"
)

// WriteY4M writes the clip as YUV4MPEG2 (4:2:0, centred chroma, limited range): raw planes
// behind a one-line header, which FFmpeg, and so trackink and OpenCV, read without loss.
func (c *Clip) WriteY4M(w io.Writer) error {
	o := c.opts
	bw := bufio.NewWriterSize(w, 1<<20)
	fmt.Fprintf(bw, "YUV4MPEG2 W%d H%d F%d:1 Ip A1:1 C420jpeg XCOLORRANGE=LIMITED\n", o.Width, o.Height, o.FPS)
	y := make([]byte, o.Width*o.Height)
	cb, cr := make([]byte, len(y)/4), make([]byte, len(y)/4)
	for n := 1; n <= o.Frames; n++ {
		c.Frame(n, y, cb, cr)
		bw.WriteString("FRAME\n")
		bw.Write(y)
		bw.Write(cb)
		if _, err := bw.Write(cr); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// WriteTruth writes the ground truth as MOTChallenge text (frame, id, left, top, width,
// height, and -1 for the score and world coordinates), which every trackink command reads.
func (c *Clip) WriteTruth(w io.Writer) error {
	_, err := scene.Write(w, c.truth, scene.FormatMOT)
	return err
}

// Save writes the clip to dir as NAME.y4m and its ground truth as NAME.gt.txt, and returns
// their paths. It is the form tests hand to commands and scripts.
func (c *Clip) Save(dir, name string) (video, truth string, err error) {
	video = filepath.Join(dir, name+".y4m")
	truth = filepath.Join(dir, name+".gt.txt")
	if err := writeFile(video, c.WriteY4M); err != nil {
		return "", "", err
	}
	if err := writeFile(truth, c.WriteTruth); err != nil {
		return "", "", err
	}
	return video, truth, nil
}

func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
