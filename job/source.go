package job

import (
	"trackink/composite"
	"trackink/overlay"
	"trackink/scene"
)

// Source gives the tracking frame drawn on each video frame: a tracks file's (Stored), the
// built-in seed scene's (Seed) or what the built-in tracker finds in the picture (Live).
type Source interface {
	// Frame returns what is tracked in frame n (in the tracks' numbering, from 1), whose
	// picture, before anything is drawn on it, is pic; nil when nothing is. pic is nil for
	// a frame replayed before a segment's first (Drawer), which only sources that do not
	// look at the picture allow.
	Frame(n int, pic composite.Surface) (*scene.Frame, error)
}

// Stored is a Source of tracks read from a file.
type Stored struct {
	Tracks *scene.Tracks
	// Judged, when set, is the tracks' judgement against ground truth, drawn with them.
	Judged *Judged
	buf    scene.Frame
}

// Frame returns the file's frame n. A long file's frames are read back from disk
// (scene.Tracks.Err): a frame that could not be read is an error, not an empty frame.
func (s *Stored) Frame(n int, _ composite.Surface) (*scene.Frame, error) {
	f := s.Tracks.Frame(n, &s.buf)
	if err := s.Tracks.Err(); err != nil {
		return nil, err
	}
	return f, nil
}

// Seed is a Source of the built-in seed scene (scene.NewSeed) at a picture's size.
type Seed struct {
	seed *scene.SeedScene
	buf  scene.Frame
}

// NewSeed returns the seed scene for w × h pictures.
func NewSeed(w, h int) *Seed { return &Seed{seed: scene.NewSeed(w, h)} }

// Frame returns the scene's frame n.
func (s *Seed) Frame(n int, _ composite.Surface) (*scene.Frame, error) {
	s.seed.Frame(n, &s.buf)
	return &s.buf, nil
}

// judgement is src's judgement of tracks frame n; nil where src has none.
func judgement(src Source, n int) *overlay.Judgement {
	if s, ok := src.(*Stored); ok && s.Judged != nil {
		return s.Judged.Frame(n)
	}
	return nil
}

// stored is the tracks src holds, nil for the seed scene and the live tracker.
func stored(src Source) *scene.Tracks {
	if s, ok := src.(*Stored); ok {
		return s.Tracks
	}
	return nil
}
