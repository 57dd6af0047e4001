// Package overlay turns tracking data into what is drawn on a video frame. A Style says how
// tracks look (a built-in look, Preset, with any of its options changed): boxes and labels, links
// between nearby tracked points (one of knn's graphs, kept from frame to frame for their
// hysteresis), curves, points, trails, glow, fades, box effects. A Builder makes a frame's
// Primitives from its scene.Frame in that style, resolved for the frame's size; a Drawer
// does so for the frames of one video in order, keeping what lasts from one frame to the
// next (the link graph, trails, track lifetimes), and has a Backend rasterise and
// composite the primitives onto the frame: package render on the CPU, kernels/gpu with the
// CUDA kernels. Everything here is in the primitives, so that every backend draws alike.
package overlay
