package scene

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// testdata/formats/cvat_video.xml follows CVAT's "XML annotation format" page, version 1.1,
// video tasks (docs.cvat.ai/docs/manual/advanced/xml_format/, from the CVAT repository's
// site/content/en/docs/manual/advanced/xml_format.md): its example's <meta> (with the
// start_frame and stop_frame that current exports add) and polygon track, then a box track
// and a single-point track as the page's schema gives them, keyframes only, so that the
// frames between are CVAT's linear interpolation (TrackManager.get_interpolated_shapes in
// cvat/apps/dataset_manager/annotation.py: p0 + (p1 - p0)·(f - f0)/(f1 - f0), nothing after an
// outside shape, the last shape held until the task's last frame).

func TestCVATFixture(t *testing.T) {
	car := func(x, h float32) Box { return box(0, x, 200, 200, h, "car", -1) }
	carPoint := func(x, h float32) Point { return Point{ID: 0, X: x + 100, Y: 200 + h} }
	face := func(x, y float32) Point { return Point{ID: 1, X: x, Y: y} }
	want := []Frame{
		{Index: 1, Boxes: []Box{car(100, 200)}, Points: []Point{carPoint(100, 200)}},
		{Index: 2, Boxes: []Box{car(110, 205)}, Points: []Point{carPoint(110, 205)}},
		{Index: 3, Boxes: []Box{car(120, 210)}, Points: []Point{face(50, 60), carPoint(120, 210)}},
		{Index: 4, Boxes: []Box{car(130, 215)}, Points: []Point{face(60, 50), carPoint(130, 215)}},
		{Index: 5, Boxes: []Box{car(140, 220)}, Points: []Point{face(70, 40), carPoint(140, 220)}},
		{Index: 6, Boxes: []Box{car(140, 220)}, Points: []Point{face(80, 30), carPoint(140, 220)}},
		{Index: 7, Points: []Point{face(80, 30)}},
		{Index: 8, Points: []Point{face(80, 30)}},
		{Index: 9, Points: []Point{face(80, 30)}},
		{Index: 10, Points: []Point{face(80, 30)}},
	}
	testFixture(t, "cvat_video.xml", Options{}, FormatCVAT, want,
		[]string{"1 tracks not drawn: <polygon> shapes (trackink draws boxes and points)"})
}

// cvatDoc wraps tracks in the root element, with an optional <meta>.
func cvatDoc(meta string, tracks ...string) string {
	return "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<annotations>\n<version>1.1</version>\n" + meta +
		strings.Join(tracks, "") + "</annotations>\n"
}

// cvatBox is a box shape on file frame f from (x, 0) to (x+10, 20).
func cvatBox(f, x string, outside string, extra ...string) string {
	return `<box frame="` + f + `" xtl="` + x + `" ytl="0" xbr="` + x + `0" ybr="20" outside="` + outside +
		`" occluded="0" keyframe="1" ` + strings.Join(extra, " ") + "></box>\n"
}

func TestCVATAccepted(t *testing.T) {
	// cvatBox's x "1" gives a box from 1 to 10, "2" from 2 to 20.
	b := func(x, w float32) Box { return box(4, x, 0, w, 20, "car", -1) }
	testAccepted(t, "t.xml", FormatCVAT, []acceptCase{
		{"empty file", Options{}, "", nil},
		{"no tracks", Options{}, cvatDoc("<meta><task><size>10</size></task></meta>"), nil},
		{"without meta a track ends at its last shape", Options{},
			cvatDoc("", `<track id="4" label="car">`+cvatBox("1", "1", "0")+cvatBox("3", "2", "0")+"</track>"),
			[]Frame{withPoints(2, b(1, 9)), withPoints(3, b(1.5, 13.5)), withPoints(4, b(2, 18))}},
		{"a task as long as the frame limit", Options{},
			cvatDoc("<meta><task><size>10000000</size></task></meta>"), nil},
		{"the task's size ends it otherwise", Options{},
			cvatDoc("<meta><task><size>4</size></task></meta>", `<track id="4" label="car">`+cvatBox("2", "2", "0")+"</track>"),
			[]Frame{withPoints(3, b(2, 18)), withPoints(4, b(2, 18))}},
		{"shapes in any order, a gap after outside, frames from 1", Options{FrameBase: OneBased},
			cvatDoc("", `<track id="4" label="car">`+cvatBox("5", "1", "0")+cvatBox("2", "1", "1")+cvatBox("1", "1", "0")+"</track>"),
			[]Frame{withPoints(1, b(1, 9)), withPoints(5, b(1, 9))}},
		{"an outside shape alone draws nothing", Options{},
			cvatDoc("", `<track id="4" label="car">`+cvatBox("0", "1", "1")+"</track>"), nil},
		{"rotated boxes and several points are skipped", Options{},
			cvatDoc("", `<track id="4" label="car">`+cvatBox("0", "1", "0", `rotation="30"`)+"</track>",
				`<track id="5" label="hand"><points frame="0" outside="0" points="1,2;3,4"/></track>`), nil},
		{"rotation 0 is a box", Options{},
			cvatDoc("", `<track id="4" label="car">`+cvatBox("0", "1", "0", `rotation="0.0"`, `z_order="2"`)+"</track>"),
			[]Frame{withPoints(1, b(1, 9))}},
		{"comments, entities, namespaces", Options{},
			"<!-- exported -->\n<annotations xmlns:x=\"urn:x\"><!-- c --><track id=\"4\" label=\"car &amp; co\">" +
				cvatBox("0", "1", "0") + "</track></annotations>\n<!-- end -->\n",
			[]Frame{withPoints(1, box(4, 1, 0, 9, 20, "car & co", -1))}},
	})
	tr, err := readString("t.xml", FormatCVAT, Options{}, cvatDoc("",
		`<track id="4" label="car">`+cvatBox("0", "1", "0", `rotation="30"`)+"</track>",
		`<track id="5" label="hand"><points frame="0" outside="0" points="1,2;3,4"/></track>`,
		`<track id="6" label="car">`+cvatBox("0", "1", "0")+"</track>"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`1 tracks end without outside="1" and <meta> gives neither stop_frame nor size: each is drawn up to its last shape`,
		"1 tracks not drawn: points shapes of several points (trackink tracks one point a track)",
		"1 tracks not drawn: rotated boxes"}
	if !reflect.DeepEqual(tr.Warnings(), want) {
		t.Errorf("warnings\n%q\nwant\n%q", tr.Warnings(), want)
	}
}

func TestCVATErrors(t *testing.T) {
	track := func(shapes ...string) string {
		return `<track id="4" label="car">` + "\n" + strings.Join(shapes, "") + "</track>\n"
	}
	// Errors name the line where the offending element starts: the document's first four
	// lines are the declaration, <annotations>, <version> and the track's start tag.
	testErrors(t, "t.xml", FormatCVAT, Options{}, []errorCase{
		{"not XML", "<annotations><version>1.1</annotations>", "t.xml:1: malformed XML: element <version> closed by </annotations>"},
		{"unclosed", "<annotations>\n<track id=\"1\" label=\"a\">\n", "t.xml:3: malformed XML: unexpected EOF"},
		{"another root", "<?xml version=\"1.0\"?>\n<dataset/>", "t.xml:2: the root element is <dataset>, not <annotations>: not CVAT XML"},
		{"CVAT for images", cvatDoc("", `<image id="0" name="a.jpg"/>`),
			"t.xml:4: <image>: this is CVAT for images; export the task as CVAT for video 1.1"},
		{"track without id", cvatDoc("", `<track label="car"/>`), `t.xml:4: track: missing "id"`},
		{"track without label", cvatDoc("", `<track id="1"/>`), `t.xml:4: track: missing "label"`},
		{"negative track id", cvatDoc("", `<track id="-1" label="a"/>`), "t.xml:4: track.id: -1 is negative " +
			"(track ids are 0 or more; MOTChallenge detection files, with id -1, have no tracks to draw)"},
		{"track id twice", cvatDoc("", track(cvatBox("0", "1", "0")), track(cvatBox("0", "1", "0"))),
			"t.xml:7: track.id: track 4 already appears on line 4"},
		{"box without xtl", cvatDoc("", track(`<box frame="0" ytl="0" xbr="1" ybr="1" outside="0"/>`)), `t.xml:5: box: missing "xtl"`},
		{"box without frame", cvatDoc("", track(`<box xtl="0" ytl="0" xbr="1" ybr="1" outside="0"/>`)), `t.xml:5: box: missing "frame"`},
		{"bad coordinate", cvatDoc("", track(`<box frame="0" xtl="a" ytl="0" xbr="1" ybr="1" outside="0"/>`)),
			`t.xml:5: box.xtl: "a" is not a number`},
		{"xbr before xtl", cvatDoc("", track(`<box frame="0" xtl="5" ytl="0" xbr="1" ybr="1" outside="0"/>`)),
			"t.xml:5: box.xbr: the box's right or bottom edge lies before its left or top"},
		{"wider than 1e7 px", cvatDoc("", track(`<box frame="0" xtl="-9000000" ytl="0" xbr="9000000" ybr="1" outside="0"/>`)),
			"t.xml:5: box.xbr: the box is more than 1e7 px across"},
		{"outside 2", cvatDoc("", track(`<box frame="0" xtl="0" ytl="0" xbr="1" ybr="1" outside="2"/>`)),
			`t.xml:5: box.outside: "2" is not 0 or 1`},
		{"negative frame", cvatDoc("", track(`<box frame="-1" xtl="0" ytl="0" xbr="1" ybr="1" outside="0"/>`)),
			"t.xml:5: box.frame: -1 is negative (frames are numbered from 0 here)"},
		{"two shapes on a frame", cvatDoc("", track(cvatBox("3", "1", "0"), cvatBox("2", "1", "0"), cvatBox("3", "2", "0"))),
			"t.xml:7: box.frame: track 4 has two shapes in frame 3 (also line 5)"},
		{"box and points in a track", cvatDoc("", track(cvatBox("3", "1", "0"), `<points frame="4" outside="0" points="1,2"/>`)),
			"t.xml:6: points: track 4 mixes <box> and <points>"},
		{"bad point", cvatDoc("", track(`<points frame="4" outside="0" points="1 2"/>`)), `t.xml:5: points.points: "1 2" is not "x,y"`},
		{"something else in a box", cvatDoc("", track(`<box frame="0" xtl="0" ytl="0" xbr="1" ybr="1" outside="0">`+"\n<label/></box>")),
			"t.xml:6: box: unexpected <label> in <box>"},
		{"attribute without name", cvatDoc("", track(`<box frame="0" xtl="0" ytl="0" xbr="1" ybr="1" outside="0">`+"\n<attribute>1</attribute></box>")),
			`t.xml:6: attribute: missing "name"`},
		{"bad stop frame", cvatDoc("<meta>\n<task><stop_frame>x</stop_frame></task></meta>"), `t.xml:5: stop_frame: "x" is not a number`},
		{"size past the frame limit", cvatDoc("<meta>\n<task><size>10000001</size></task></meta>"), "t.xml:5: size: 10000001 is not a count of frames (0 to 10000000)"},
		{"text after the root", cvatDoc("") + "junk", "t.xml:5: text after the root element"},
		{"label with a newline", cvatDoc("", `<track id="1" label="a&#10;b"/>`), `t.xml:4: track.label: "a\nb" contains the control character U+000A`},
	})
}

// Tracks that each run to the task's stop frame reach the builder in frame order, the tracks
// of a frame in the file's order, so that it keeps a long task's frames on disk (a 450-byte
// file of three tracks to frame 9 999 999 once held 30 million boxes in 2 GB of memory).
func TestCVATAddsInFrameOrder(t *testing.T) {
	doc := cvatDoc("<meta><task><stop_frame>50</stop_frame></task></meta>",
		`<track id="1" label="car">`+cvatBox("0", "1", "0")+cvatBox("10", "2", "0")+"</track>",
		`<track id="2" label="car">`+cvatBox("5", "1", "0")+cvatBox("8", "1", "1")+cvatBox("20", "2", "0")+"</track>",
		`<track id="3" label="car">`+cvatBox("0", "3", "0")+"</track>")
	c := newCVATReader(strings.NewReader(doc), "t.xml", Options{})
	if err := c.read(); err != nil {
		t.Fatal(err)
	}
	c.emit()
	if c.b.boxes.unsorted {
		t.Error("the boxes reached the builder out of frame order")
	}
	tr, err := c.b.finish(FormatCVAT, BottomCenter)
	if err != nil {
		t.Fatal(err)
	}
	for n, want := range map[int][]int{1: {1, 3}, 7: {1, 2, 3}, 9: {1, 3}, 21: {1, 2, 3}, 51: {1, 2, 3}, 52: nil} {
		var ids []int
		if f := tr.Frame(n, &Frame{}); f != nil {
			for _, b := range f.Boxes {
				ids = append(ids, b.ID)
			}
		}
		if !slices.Equal(ids, want) {
			t.Errorf("frame %d: tracks %v, want %v", n, ids, want)
		}
	}
}
