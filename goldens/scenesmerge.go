package goldens

import (
	"trackink/overlay"
	"trackink/scene"
)

// tracksMerged is the scene of several tracks files drawn together (render --tracks A
// --tracks B).
var tracksMerged = Scene{
	Name: "tracks-merged", Width: 960, Height: 540,
	About: "two tracks files drawn together, both with tracks 0 to 19 (scene.Merge): people boxes from one, " +
		"a plexus of corner points from the other, --color-by source, labels '{source} #{id}' showing each file's own ids, " +
		"trails that stay each track's own",
	Draw: mergedScene,
}

func init() { Scenes = append(Scenes, tracksMerged) }

// mergedScene draws the seed scene's boxes as one file (people) and its points, moved and
// with the same ids, as another (corners), merged as render merges them.
func mergedScene(p *overlay.Primitives, font *overlay.Font, w, h int) error {
	seed := scene.NewSeed(w, h)
	var all scene.Frame
	people, corners := make([]scene.Frame, 12), make([]scene.Frame, 12)
	for n := 1; n <= 12; n++ {
		seed.Frame(4*n, &all) // 4× faster, so that trails show
		people[n-1], corners[n-1] = scene.Frame{Index: n}, scene.Frame{Index: n}
		for i := 0; i < 20 && i < len(all.Boxes); i++ {
			bx := all.Boxes[i*len(all.Boxes)/20]
			bx.ID, bx.Class = i, "person"
			people[n-1].Boxes = append(people[n-1].Boxes, bx)
			people[n-1].Points = append(people[n-1].Points, scene.AnchorPoint(bx.X, bx.Y, bx.W, bx.H, scene.BottomCenter))
			people[n-1].Points[i].ID = i
		}
		for i := 0; i < 20 && i < len(all.Points); i++ {
			pt := all.Points[(i*len(all.Points)/20+7)%len(all.Points)]
			pt.ID = i
			corners[n-1].Points = append(corners[n-1].Points, pt)
		}
	}
	a, err := scene.NewTracks(people)
	if err != nil {
		return err
	}
	c, err := scene.NewTracks(corners)
	if err != nil {
		return err
	}
	merged, err := scene.Merge([]*scene.Tracks{a, c}, []string{"people.txt", "corners.jsonl"})
	if err != nil {
		return err
	}
	b, g, err := lookBuilder("default", func(st *overlay.Style) {
		st.ColorBy, st.Sources, st.LabelFormat, st.Trail = overlay.BySource, []string{"people", "corners"}, "{source} #{id}", 6
	}, font, w, h)
	if err != nil {
		return err
	}
	defer g.Close()
	for f := range merged.All() {
		edges, err := g.Update(f.Points)
		if err != nil {
			return err
		}
		b.Build(p, f, edges)
	}
	return merged.Err()
}
