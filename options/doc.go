// Package options is trackink's one option table and the flags built from it: every flag of
// every command, with its heading, whether -h shows it, the names it takes, the library
// fields it sets and whether a style file may set it (options.go, CheckTable); the flag
// groups the commands share (Style for the look, links and backend; Tracks for the
// tracking-file readers; Video for the video options; Detect for the built-in tracker),
// each turning its flags into the libraries' options (overlay.Options, scene.Options,
// video.Options, tracker.Options) with errors that name the flag (FlagError, UsageError);
// a command's --help and -h (NewFlagSet); and the man pages and shell completion scripts
// written from the table (WriteManPage, WriteCompletion). Package cli defines the commands
// over it.
package options
