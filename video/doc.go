// Package video is trackink's decode → draw → encode pipeline: it reads any video FFmpeg
// can open, lets a DrawFunc draw on every frame in place, and writes the same video back
// with the overlay burnt in and everything else left as it was.
//
// Data flow (one loop on one goroutine, as the ffmpeg CLI's, with the codecs' own threads
// doing the overlap; a goroutine per stage, joined by short queues, when frames are drawn
// in GPU memory; Transcode in transcode.go opens everything, pipeline.go runs the stages):
//
//	demux ─┬─ video packets → decode (software or NVDEC) → make writable / convert
//	       │                     → draw(n, frame) → encode (libx264 … h264_nvenc) ─┐
//	       └─ audio, subtitle, data packets (copied, timestamps rescaled) ─────────┴→ mux
//
// The DrawFunc sees the decoded frame's own planes as a composite.YUV420P or composite.NV12,
// with the stream's matrix and range, turned as it is displayed when the stream has a
// display matrix (turn.go). Frames of any other pixel format (4:2:2, 4:4:4, 12-bit, R'G'B',
// palettes, grey) are converted to one of those, or their 10-bit forms, by swscale first,
// in one documented way for each kind, and the render says so in one line (color.go). Output is faithful to the input: same size (an odd one, which
// 4:2:0 H.264 cannot code, is padded, cropped or coded 4:4:4: oddsize.go), frame count and
// timestamps (the encoder works in the input stream's time base, so variable frame rates
// pass through), other streams copied bit for bit, metadata, dispositions and the rotation
// (display matrix) kept. It is written to a locked partial file beside the target and moved
// into place on success (outfile.go); the input is never the output. A damaged input is
// rendered as far as it decodes and reported with ErrInputDamaged.
//
// With Options.Layer it writes the overlay alone instead, with straight alpha, frame for
// frame with the source, for an editor to composite (layer.go).
//
// The codec calls that block while frame threads are busy (x264's and x265's send, a
// frame-threaded software decoder's, and both while draining) run on a thread of the codec's
// own, waited for in slices under Go's sysmon's 10 ms (codecthread.go).
//
// FFmpeg is reached through go-astiav v0.16.0 (the last tag for FFmpeg 5.1), plus a little
// cgo of our own (avshim.go) for what that tag lacks.
package video
