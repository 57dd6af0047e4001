package detect

import (
	"bytes"
	"encoding/binary"
	"slices"
	"testing"
)

// testModel is a ModelProto with an IR version, a graph of one node, the input images
// [1, 3, 416, 416], an initializer also listed as an input (as older exports do), the output
// [1, 3549, 85] and two declared intermediate shapes, and an opset after the graph.
func testModel() []byte {
	node := appendBytesField(nil, 4, []byte("Conv"))
	var g []byte
	g = appendBytesField(g, 1, node)
	g = appendBytesField(g, 2, []byte("main"))
	g = appendBytesField(g, graphInput, floatTensorInfo("images", 1, 3, 416, 416))
	g = appendBytesField(g, graphInput, floatTensorInfo("weights", 16, 3, 3, 3))
	g = appendBytesField(g, graphOutput, floatTensorInfo("output", 1, 3549, 85))
	g = appendBytesField(g, graphValueInfo, floatTensorInfo("x", 1, 16, 208, 208))
	g = appendBytesField(g, graphValueInfo, floatTensorInfo("y", 1, 32, 104, 104))
	m := appendVarintField(nil, 1, 6)
	m = appendBytesField(m, modelGraph, g)
	return appendBytesField(m, 8, appendVarintField(nil, 2, 11))
}

// declared lists the graph's declared values of field num: name and dims.
func declared(t *testing.T, model []byte, num uint64) map[string][]int {
	t.Helper()
	out := map[string][]int{}
	for _, f := range mustFields(t, model) {
		if f.num != modelGraph {
			continue
		}
		for _, gf := range mustFields(t, f.payload) {
			if gf.num != num {
				continue
			}
			name, dims := "", []int{}
			for _, v := range mustFields(t, gf.payload) {
				switch v.num {
				case valueName:
					name = string(v.payload)
				case valueType:
					tensor := only(t, v.payload, typeTensor)
					for _, d := range mustFields(t, only(t, tensor, tensorShape)) {
						val, _ := binary.Uvarint(d.payload[1:])
						dims = append(dims, int(val))
					}
				}
			}
			out[name] = dims
		}
	}
	return out
}

func mustFields(t *testing.T, b []byte) []wireField {
	t.Helper()
	fs, err := wireFields(b)
	if err != nil {
		t.Fatal(err)
	}
	return fs
}

// only is the payload of message b's one field num.
func only(t *testing.T, b []byte, num uint64) []byte {
	t.Helper()
	for _, f := range mustFields(t, b) {
		if f.num == num {
			return f.payload
		}
	}
	t.Fatalf("no field %d", num)
	return nil
}

func TestSizedModel(t *testing.T) {
	in := testModel()
	got, err := sizedModel(in, "images", "output", 416, 256)
	if err != nil {
		t.Fatal(err)
	}
	inputs := declared(t, got, graphInput)
	if !slices.Equal(inputs["images"], []int{1, 3, 256, 416}) || !slices.Equal(inputs["weights"], []int{16, 3, 3, 3}) || len(inputs) != 2 {
		t.Errorf("inputs %v; want images [1 3 256 416] and weights as they were", inputs)
	}
	if outputs := declared(t, got, graphOutput); !slices.Equal(outputs["output"], []int{1, 2184, 85}) || len(outputs) != 1 {
		t.Errorf("outputs %v; want output [1 2184 85]", outputs)
	}
	if vi := declared(t, got, graphValueInfo); len(vi) != 0 {
		t.Errorf("intermediate shapes %v kept", vi)
	}
	// Everything else as it was: the IR version and opset around the graph, the graph's
	// node and name in their places.
	inTop, gotTop := mustFields(t, in), mustFields(t, got)
	if len(gotTop) != 3 || !bytes.Equal(inTop[0].raw, gotTop[0].raw) || !bytes.Equal(inTop[2].raw, gotTop[2].raw) {
		t.Errorf("the model's other fields changed")
	}
	inGraph, gotGraph := mustFields(t, inTop[1].payload), mustFields(t, gotTop[1].payload)
	if !bytes.Equal(inGraph[0].raw, gotGraph[0].raw) || !bytes.Equal(inGraph[1].raw, gotGraph[1].raw) || !bytes.Equal(inGraph[3].raw, gotGraph[3].raw) {
		t.Errorf("the graph's node, name or second input changed")
	}
	// At 416 × 416 the declared shapes are the export's own.
	same, err := sizedModel(in, "images", "output", 416, 416)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(declared(t, same, graphInput)["images"], []int{1, 3, 416, 416}) || !slices.Equal(declared(t, same, graphOutput)["output"], []int{1, 3549, 85}) {
		t.Errorf("416x416 changed the declared shapes")
	}
}

func TestSizedModelRefuses(t *testing.T) {
	good := testModel()
	twoGraphs := append(slices.Clone(good), good...)
	for _, tc := range []struct {
		name    string
		model   []byte
		in, out string
	}{
		{"not protobuf", []byte("<html>not found</html>"), "images", "output"},
		{"cut short", good[:len(good)/2], "images", "output"},
		{"no graph", appendVarintField(nil, 1, 6), "images", "output"},
		{"two graphs", twoGraphs, "images", "output"},
		{"no such input", good, "input", "output"},
		{"no such output", good, "images", "boxes"},
		{"empty", nil, "images", "output"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := sizedModel(tc.model, tc.in, tc.out, 416, 256); err == nil {
				t.Fatal("took it")
			}
		})
	}
}

// FuzzSizedModel: whatever the bytes, an error or a model, never a panic; and a model it
// returns reads back as protobuf.
func FuzzSizedModel(f *testing.F) {
	f.Add(testModel())
	f.Add([]byte{0x3a, 0x02, 0x5a, 0x00})
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := sizedModel(b, "images", "output", 416, 256)
		if err != nil {
			return
		}
		if _, err := wireFields(got); err != nil {
			t.Fatalf("wrote bytes that do not read back: %v", err)
		}
	})
}
