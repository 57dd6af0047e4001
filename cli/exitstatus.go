package cli

import (
	"fmt"
	"io"
	"strings"
)

// Exit statuses beyond 0 (success): the one table is exitStatuses, which the README's table
// is checked against (TestExitStatusTable) and the man page prints. A run stopped by a signal
// exits 128 + its number (signals.go).
const (
	exitFailure = 1 // the work failed, or an input's contents are wrong
	exitUsage   = 2 // a mistake on the command line, found before any work
	exitDamaged = 3 // a damaged input; what decoded was processed and written
)

// exitStatus is one row of the table: a status and, in the user's words, when it is given.
type exitStatus struct {
	status  string
	meaning string
}

// exitStatuses is what every command's exit status means. The same mistake gets the same
// status in every command: the tests of each row run it through render, track, eval and
// tracks where it applies (TestSameMistakeSameStatus).
var exitStatuses = []exitStatus{
	{"0", "success"},
	{fmt.Sprint(exitFailure), "failure, no output written: data whose contents are wrong (tracks or ground truth that break a rule of their format, " +
		"named by file, line and field; a video FFmpeg cannot read, or with no frame that decodes; " +
		"a picture sequence with a picture missing before others), " +
		"an output that cannot be written (a read-only directory, a full disk; standard output too), a video or picture too large for the memory available, " +
		"a damaged segment, a device that fails mid-render"},
	{fmt.Sprint(exitUsage), "a mistake on the command line, found before any work, the message naming the flag: a value out of range, " +
		"flags that conflict, a file that does not exist or is a directory, a settings file (`--style`, `--font`, `--class-names`, " +
		"`--label-words`) that is not what the flag takes, an output directory that does not exist, " +
		"an output that exists (without `-y`) or is one of the run's inputs, a `--start`/`--end` range or `--frame` with no frame in it"},
	{fmt.Sprint(exitDamaged), "a damaged input: the frames that decoded were processed and the output written"},
	{"130, 143, 129", "stopped by SIGINT (Ctrl-C), SIGTERM or SIGHUP (128 + the signal); no output written"},
}

// writeExitTable writes exitStatuses as the README's Markdown table.
func writeExitTable(w io.Writer) {
	fmt.Fprintln(w, "| status | meaning |")
	fmt.Fprintln(w, "| --- | --- |")
	for _, s := range exitStatuses {
		fmt.Fprintf(w, "| %s | %s |\n", s.status, s.meaning)
	}
}

// exitStatusText is exitStatuses as one paragraph, for the man page.
func exitStatusText() string {
	var parts []string
	for _, s := range exitStatuses {
		parts = append(parts, s.status+" "+strings.ReplaceAll(s.meaning, "`", ""))
	}
	return strings.Join(parts, ". ") + "."
}
