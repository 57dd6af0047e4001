package detect

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"trackink/internal/suggest"
)

// Classes are YOLOX-Nano's 80 COCO classes, by index, as YOLOX names them
// (yolox/data/datasets/coco_classes.py, COCO's own names); class 0 is person. Boxes are
// labelled with these names.
var Classes = []string{
	"person", "bicycle", "car", "motorcycle", "airplane", "bus", "train", "truck", "boat",
	"traffic light", "fire hydrant", "stop sign", "parking meter", "bench", "bird", "cat", "dog",
	"horse", "sheep", "cow", "elephant", "bear", "zebra", "giraffe", "backpack", "umbrella",
	"handbag", "tie", "suitcase", "frisbee", "skis", "snowboard", "sports ball", "kite",
	"baseball bat", "baseball glove", "skateboard", "surfboard", "tennis racket", "bottle",
	"wine glass", "cup", "fork", "knife", "spoon", "bowl", "banana", "apple", "sandwich",
	"orange", "broccoli", "carrot", "hot dog", "pizza", "donut", "cake", "chair", "couch",
	"potted plant", "bed", "dining table", "toilet", "tv", "laptop", "mouse", "remote",
	"keyboard", "cell phone", "microwave", "oven", "toaster", "sink", "refrigerator", "book",
	"clock", "vase", "scissors", "teddy bear", "hair drier", "toothbrush",
}

// ClassAliases are the other spellings of six of Classes, darknet's coco.names (and
// PASCAL VOC's): the model file's coco_classes.txt has them, and so do the labels of tracks
// trackink saved before it took YOLOX's names. --classes takes either.
var ClassAliases = map[string]string{
	"motorbike":   "motorcycle",
	"aeroplane":   "airplane",
	"sofa":        "couch",
	"pottedplant": "potted plant",
	"diningtable": "dining table",
	"tvmonitor":   "tv",
}

// ClassIndices returns the indices of the classes named in a comma-separated list
// ("person,car,dog"), by their names or their aliases, in any case ("Person", "TV": the
// names are lower case, and none differs from another by case alone); an unknown name is
// an error that suggests the name it is close to and lists the names.
func ClassIndices(list string) ([]int, error) {
	var idx []int
	for _, typed := range strings.Split(list, ",") {
		typed = strings.TrimSpace(typed)
		if typed == "" {
			continue
		}
		name := strings.ToLower(typed)
		if alias, ok := ClassAliases[name]; ok {
			name = alias
		}
		i := slices.Index(Classes, name)
		if i < 0 {
			// The names first: a typo as close to a name as to its alias ("potted-plant")
			// is then still suggested, not lost in a tie.
			hint := suggest.DidYouMean(name, Classes)
			if hint == "" {
				hint = suggest.DidYouMean(name, slices.Sorted(maps.Keys(ClassAliases)))
			}
			return nil, fmt.Errorf("unknown class %q%s: the classes are %s", typed, hint, strings.Join(Classes, ", "))
		}
		if !slices.Contains(idx, i) {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		return nil, fmt.Errorf("no class named in %q", list)
	}
	return idx, nil
}
