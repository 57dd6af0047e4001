package video

import (
	"context"
	"errors"
	"fmt"
)

// Source is an input video opened once, for a caller that must know what it holds before it
// renders it (its size for the tracks, its length for --start) without opening and probing
// it twice: Open reads the header and probes the streams (avformat_find_stream_info, which
// decodes a frame or more: about 22 ms and 5 400 page faults for a 4K clip), Info says what
// it found, and Options.Source hands it to Transcode or Frames, which read on from where the
// probe stopped instead of opening Options.Input again. A pipe (a shell's <(…), a FIFO) can
// be read only once, so it can be rendered only this way.
//
// Whoever calls Open owns the Source and closes it, after the render: Transcode and Frames
// read it and never close it. It can be read once; a second render needs a second Open. A
// Source is for one goroutine.
type Source struct {
	in   *input
	info Info
	read bool // a render has taken it
	shut bool // Close ran
}

// Open opens the video at path and picks its video stream (videoStream as in
// Options.VideoStream), as Transcode would. A ctx that ends while the open waits (a pipe
// nobody writes to yet, a network input) ends it with an error that wraps ctx's cause.
func Open(ctx context.Context, path string, videoStream int) (*Source, error) {
	sink, detach := attachFFmpegLog(nil)
	defer detach()
	in, err := openInput(ctx, path, videoStream)
	if err != nil {
		return nil, fmt.Errorf("%w%s", err, because(sink.unshown()))
	}
	return &Source{in: in, info: in.info()}, nil
}

// Probe opens the video at path the way Transcode opens it (videoStream as in
// Options.VideoStream), reads what Info holds and closes it. A caller that renders the video
// next uses Open instead, which keeps it open for the render.
func Probe(ctx context.Context, path string, videoStream int) (Info, error) {
	s, err := Open(ctx, path, videoStream)
	if err != nil {
		return Info{}, err
	}
	defer s.Close()
	return s.Info(), nil
}

// Info describes the video as Open found it.
func (s *Source) Info() Info { return s.info }

// Path is the file or URL the Source was opened from.
func (s *Source) Path() string { return s.in.path }

// Close releases the input. It may be called more than once; after it the Source cannot be
// rendered.
func (s *Source) Close() {
	if !s.shut {
		s.shut = true
		s.in.close()
	}
}

// errSourceUsed is take's error for a Source read before or closed.
var errSourceUsed = errors.New("video: the opened input was rendered or closed already; Open it again")

// take hands the opened input to one render, once.
func (s *Source) take() (*input, error) {
	if s.read || s.shut {
		return nil, fmt.Errorf("%w: %s", errSourceUsed, s.in.path)
	}
	s.read = true
	return s.in, nil
}
