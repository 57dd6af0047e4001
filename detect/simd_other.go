//go:build !amd64 || !gc || purego

package detect

func verticalRows(dst []float32, src []byte, stride int, w []float32) int { return 0 }

func horizontalRows(dst, src []float32, start []int32, w [][8]float32) int { return 0 }

func toRGBRows(r, g, b, y, cb, cr []float32, k *ycbcrToRGB) int { return 0 }
