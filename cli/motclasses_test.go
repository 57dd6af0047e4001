package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The 9-field MOTChallenge layout's 8th field numbers other classes than MOTChallenge's in
// two tools' files, which eval, render and tracks read alike: CVAT's MOT 1.1 export, whose
// class_id n is line n of gt/labels.txt beside gt/gt.txt (its people were drawn as cars, its
// cat as a pedestrian, and a perfect tracker of the people scored MOTA −200 % under
// TrackEval's rules), and BoxMOT's results, COCO's class + 1 then the confidence, named by
// --class-names (a truck was a "distractor", a dog refused as no MOTChallenge class).
func TestMOT9FieldClasses(t *testing.T) {
	write := fileWriter(t)
	gt := write("seq/gt/gt.txt", "1,1,100,100,50,120,1,3,1.0\n1,2,300,100,50,120,1,3,1.0\n2,1,102,100,50,120,1,3,1.0\n"+
		"2,2,302,100,50,120,1,3,1.0\n1,3,500,300,60,40,1,1,1.0\n2,3,505,300,60,40,1,1,1.0\n")
	write("seq/gt/labels.txt", "cat\ndog\nperson")
	people := write("people.txt", "1,1,100,100,50,120,0.9,-1,-1,-1\n1,2,300,100,50,120,0.9,-1,-1,-1\n"+
		"2,1,102,100,50,120,0.9,-1,-1,-1\n2,2,302,100,50,120,0.9,-1,-1,-1\n")
	boxmot := write("boxmot.txt", "1,1,100,200,50,120,1,1,0.912345\n1,2,300,200,150,90,1,3,0.871000\n"+
		"1,3,600,200,150,90,1,8,0.771000\n1,4,800,200,40,30,1,17,0.650000\n")
	cocoNames := strings.Split(strings.Repeat("x\n", 80), "\n")
	cocoNames[0], cocoNames[2], cocoNames[7], cocoNames[16] = "person", "car", "truck", "dog"
	coco := write("coco.names", strings.Join(cocoNames, "\n"))
	converted := filepath.Join(filepath.Dir(coco), "boxmot.jsonl")

	for _, c := range []struct {
		name string
		args []string
		code int
		want []string // in stdout, or stderr when code is not 0, or converted
	}{
		{"tracks: CVAT's labels", []string{"tracks", gt}, 0, []string{
			"format     MOTChallenge text (9 fields, CVAT's MOT 1.1: class numbers the lines of " + strings.TrimSuffix(gt, "gt.txt") + "labels.txt)",
			"classes    person 4, cat 2"}},
		{"tracks: --class-names none reads MOTChallenge's classes", []string{"tracks", "--class-names", "none", gt}, 0, []string{
			"(9 fields, MOT17 ground truth: class is MOTChallenge's)", "classes    car 4, pedestrian 2"}},
		{"eval --rules trackeval: the people are the pedestrians", []string{"eval", "--json", "--rules", "trackeval", "--gt", gt, "--tracks", people}, 0, []string{
			`"mota": 1,`, `"false_positives": 0,`, `"misses": 0,`}},
		{"tracks: BoxMOT with COCO's names", []string{"tracks", "--class-names", coco, "--to", "jsonl", "-o", converted, boxmot}, 0, []string{
			`"label":"person","score":0.912345`, `"label":"car","score":0.871`, `"label":"truck","score":0.771`, `"label":"dog","score":0.65`}},
		{"tracks: BoxMOT without names", []string{"tracks", boxmot}, 1, []string{
			"boxmot.txt:4: field 8 (class): 17 is not a MOTChallenge class (1 to 13); a file whose 8th field numbers other classes " +
				"(CVAT's MOT 1.1, BoxMOT) needs --class-names FILE or a labels.txt beside it"}},
	} {
		code, out, errOut := trackink(c.args...)
		if code != c.code {
			t.Errorf("%s: exit %d, want %d: %s", c.name, code, c.code, errOut)
			continue
		}
		switch {
		case code != 0:
			out = errOut
		case slices.Contains(c.args, converted):
			data, err := os.ReadFile(converted)
			must(t, err)
			out = string(data)
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: no %q in\n%s", c.name, w, out)
			}
		}
	}
}
