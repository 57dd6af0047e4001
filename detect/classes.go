package detect

import (
	"fmt"
	"slices"
	"strings"
)

// Classes are YOLOX-Nano's 80 COCO classes, by index, as the model's coco_classes.txt names
// them; class 0 is person.
var Classes = []string{
	"person", "bicycle", "car", "motorbike", "aeroplane", "bus", "train", "truck", "boat",
	"traffic light", "fire hydrant", "stop sign", "parking meter", "bench", "bird", "cat", "dog",
	"horse", "sheep", "cow", "elephant", "bear", "zebra", "giraffe", "backpack", "umbrella",
	"handbag", "tie", "suitcase", "frisbee", "skis", "snowboard", "sports ball", "kite",
	"baseball bat", "baseball glove", "skateboard", "surfboard", "tennis racket", "bottle",
	"wine glass", "cup", "fork", "knife", "spoon", "bowl", "banana", "apple", "sandwich",
	"orange", "broccoli", "carrot", "hot dog", "pizza", "donut", "cake", "chair", "sofa",
	"pottedplant", "bed", "diningtable", "toilet", "tvmonitor", "laptop", "mouse", "remote",
	"keyboard", "cell phone", "microwave", "oven", "toaster", "sink", "refrigerator", "book",
	"clock", "vase", "scissors", "teddy bear", "hair drier", "toothbrush",
}

// ClassIndices returns the indices of the classes named in a comma-separated list
// ("person,car,dog"); an unknown name is an error that lists the names.
func ClassIndices(list string) ([]int, error) {
	var idx []int
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		i := slices.Index(Classes, name)
		if i < 0 {
			return nil, fmt.Errorf("unknown class %q: the classes are %s", name, strings.Join(Classes, ", "))
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
