// Package job runs a render end to end: a video's frames are decoded (package video), the
// tracks of each frame come from a Source (a tracks file, the seed scene, or the built-in
// tracker running on the decoded picture), a Drawer draws them with the overlay (package
// overlay, whose backend rasterises and composites), and the frame goes on to the encoder.
// A frame's way is video → job → overlay → render → composite, and back to video.
//
// Render renders a whole video or one segment of it (for video.Join); Preview draws one
// frame of a video as the whole render draws it there; Still draws onto a picture. Where
// frames are drawn (the CPU, the emulated device, a GPU) is decided once, by Place, which
// also says whether frames stay in GPU memory.
//
// The trackink command is a shell over this package: it turns flags into Options, and
// errors and Reports into messages and exit statuses.
package job
