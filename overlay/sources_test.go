package overlay

import (
	"testing"

	"trackink/scene"
)

// Tracks files drawn together (scene.Merge): --color-by source colours each file's items
// alike, whatever their ids, and by track or by source track 3 of each file is two colours.
// (Their labels: TestLabelFormat.)
func TestColoursOfTracksFilesDrawnTogether(t *testing.T) {
	const files = 2
	gt := scene.Box{ID: scene.MergedID(3, 0, files), Source: 0}
	tracker := scene.Box{ID: scene.MergedID(3, 1, files), Source: 1}
	sources := []string{"gt", "tracker"}
	// By track or by source, gt's track 3 and the tracker's are two colours.
	for _, by := range []ColorBy{ByTrack, BySource} {
		b := newTestBuilder(t, Style{ColorBy: by, Sources: sources}, 100, 100)
		c0 := b.itemColor(gt.ID, gt.Source, "", scene.Color{}, false)
		c1 := b.itemColor(tracker.ID, tracker.Source, "", scene.Color{}, false)
		if c0 == c1 {
			t.Errorf("--color-by %s: gt's track 3 and the tracker's are both %v", by, c0)
		}
		if by != BySource {
			continue
		}
		// Every item of a file takes its colour: another track, an untracked box.
		for _, id := range []int{scene.MergedID(40, 1, files), scene.NoID} {
			if c := b.itemColor(id, 1, "", scene.Color{}, false); c != c1 {
				t.Errorf("--color-by source: the tracker's item %d is %v, its track 3 %v", id, c, c1)
			}
		}
	}
	if _, err := ParseColorBy("source"); err != nil {
		t.Error(err)
	}
}

// --box-effect's "track id k takes the k-th" is the file's own id with files drawn together:
// with two files and two effects the merged ids (k·2 + file) would give every track of a
// file the same effect.
func TestBoxEffectCyclesByTheFilesOwnIDs(t *testing.T) {
	const files = 2
	st := Style{BoxEffects: []Effect{EffectBlur, EffectPixelate}, Sources: []string{"a", "b"}}
	b := newTestBuilder(t, st, 100, 100)
	for _, c := range []struct{ id, source int }{{0, 0}, {1, 0}, {2, 0}, {3, 0}, {0, 1}, {1, 1}, {2, 1}, {3, 1}} {
		var p Primitives
		bx := scene.Box{ID: scene.MergedID(c.id, c.source, files), Source: c.source, X: 10, Y: 10, W: 20, H: 20}
		b.addEffect(&p, &bx, scene.Color{})
		if want := st.BoxEffects[c.id%2]; len(p.Effects) != 1 || p.Effects[0].Kind != want {
			t.Errorf("track %d of file %d: effects %+v, want one %s", c.id, c.source, p.Effects, want)
		}
	}
}
