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
