package detect

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// The network runs at the input size the frame needs (inputSize), not always 416 × 416: a
// 16:9 frame fills 416 × 234 of the square, and the rows of padding below it cost the
// network as much as the picture's. YOLOX-Nano's graph holds no size of its own (its slices
// run to the end, its upsampling is by a factor, its output is reshaped to [1, 85, −1]); only
// the shapes the export declares name 416. So the model is handed to the runtime with its
// input and output declared at the size wanted and its declared intermediate shapes dropped,
// for the runtime to infer. That takes reading and writing a few fields of the ONNX
// protobuf (onnx.proto: ModelProto.graph = 7; GraphProto.input = 11, output = 12,
// value_info = 13), done here with the wire format alone: every other field is copied as
// it lies.

// ONNX's field numbers, and its element type for float32.
const (
	modelGraph     = 7  // ModelProto.graph
	graphInput     = 11 // GraphProto.input
	graphOutput    = 12 // GraphProto.output
	graphValueInfo = 13 // GraphProto.value_info
	valueName      = 1  // ValueInfoProto.name
	valueType      = 2  // ValueInfoProto.type
	typeTensor     = 1  // TypeProto.tensor_type
	tensorElem     = 1  // TypeProto.Tensor.elem_type
	tensorShape    = 2  // TypeProto.Tensor.shape
	shapeDim       = 1  // TensorShapeProto.dim
	dimValue       = 1  // TensorShapeProto.Dimension.dim_value
	elemFloat      = 1  // TensorProto.FLOAT
)

// wireField is one field of a protobuf message: its number, its wire type, its payload
// (a length-delimited field's bytes; nil for the others) and its whole encoding, key
// included, to be copied unchanged.
type wireField struct {
	num     uint64
	typ     int
	payload []byte
	raw     []byte
}

var errWire = errors.New("not a protobuf message")

// wireFields splits a protobuf message into its fields, in order.
func wireFields(b []byte) ([]wireField, error) {
	var fs []wireField
	for len(b) > 0 {
		start := b
		key, n := binary.Uvarint(b)
		if n <= 0 || key>>3 == 0 {
			return nil, errWire
		}
		b = b[n:]
		f := wireField{num: key >> 3, typ: int(key & 7)}
		switch f.typ {
		case 0: // varint
			if _, n = binary.Uvarint(b); n <= 0 {
				return nil, errWire
			}
		case 1: // fixed64
			n = 8
		case 5: // fixed32
			n = 4
		case 2: // length-delimited
			l, m := binary.Uvarint(b)
			if m <= 0 || l > uint64(len(b)-m) {
				return nil, errWire
			}
			f.payload = b[m : m+int(l)]
			n = m + int(l)
		default: // groups (3, 4) are not in ONNX's messages
			return nil, errWire
		}
		if n > len(b) {
			return nil, errWire
		}
		b = b[n:]
		f.raw = start[:len(start)-len(b)]
		fs = append(fs, f)
	}
	return fs, nil
}

// appendBytesField appends field num holding payload, length-delimited.
func appendBytesField(dst []byte, num uint64, payload []byte) []byte {
	dst = binary.AppendUvarint(dst, num<<3|2)
	dst = binary.AppendUvarint(dst, uint64(len(payload)))
	return append(dst, payload...)
}

// appendVarintField appends field num holding v as a varint.
func appendVarintField(dst []byte, num, v uint64) []byte {
	dst = binary.AppendUvarint(dst, num<<3)
	return binary.AppendUvarint(dst, v)
}

// floatTensorInfo encodes a ValueInfoProto: name, a float32 tensor of the given dims.
func floatTensorInfo(name string, dims ...int) []byte {
	var shape []byte
	for _, d := range dims {
		shape = appendBytesField(shape, shapeDim, appendVarintField(nil, dimValue, uint64(d)))
	}
	tensor := appendVarintField(nil, tensorElem, elemFloat)
	tensor = appendBytesField(tensor, tensorShape, shape)
	info := appendBytesField(nil, valueName, []byte(name))
	return appendBytesField(info, valueType, appendBytesField(nil, typeTensor, tensor))
}

// valueInfoName is a ValueInfoProto's name.
func valueInfoName(info []byte) (string, error) {
	fs, err := wireFields(info)
	if err != nil {
		return "", err
	}
	for _, f := range fs {
		if f.num == valueName && f.typ == 2 {
			return string(f.payload), nil
		}
	}
	return "", nil
}

// sizedModel returns the model with its one input, in, declared as [1, 3, h, w] and its one
// output, out, as [1, cells, 85] for that input, and no declared intermediate shapes. The
// model's other fields are copied unchanged.
func sizedModel(model []byte, in, out string, w, h int) ([]byte, error) {
	top, err := wireFields(model)
	if err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	var dst []byte
	graphs := 0
	for _, f := range top {
		if f.num != modelGraph || f.typ != 2 {
			dst = append(dst, f.raw...)
			continue
		}
		graphs++
		fields, err := wireFields(f.payload)
		if err != nil {
			return nil, fmt.Errorf("model's graph: %w", err)
		}
		var g []byte
		found := 0
		for _, gf := range fields {
			name := ""
			if gf.num == graphInput || gf.num == graphOutput {
				if name, err = valueInfoName(gf.payload); err != nil {
					return nil, fmt.Errorf("model's graph: %w", err)
				}
			}
			switch {
			case gf.num == graphInput && name == in:
				g = appendBytesField(g, graphInput, floatTensorInfo(in, 1, 3, h, w))
				found++
			case gf.num == graphOutput && name == out:
				g = appendBytesField(g, graphOutput, floatTensorInfo(out, 1, cells(w, h), 5+len(Classes)))
				found++
			case gf.num == graphValueInfo:
			default:
				g = append(g, gf.raw...)
			}
		}
		if found != 2 {
			return nil, fmt.Errorf("model's graph: no input %q or no output %q", in, out)
		}
		dst = appendBytesField(dst, modelGraph, g)
	}
	if graphs != 1 {
		return nil, fmt.Errorf("model: %d graphs, want 1", graphs)
	}
	return dst, nil
}
