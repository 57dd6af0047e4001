package options

// flagGroup is a heading of a command's --help.
type flagGroup int

// The headings, in the order --help prints them.
const (
	groupIO flagGroup = iota
	groupTracks
	groupLook
	groupLabels
	groupLinks
	groupColours
	groupRange
	groupEncoding
	groupBench
	groupGoldens
	groupScoring
	groupAdvanced
)

var groupTitles = [...]string{
	groupIO:       "Input and output",
	groupTracks:   "Tracks",
	groupLook:     "Look",
	groupLabels:   "Labels",
	groupLinks:    "Links",
	groupColours:  "Colours",
	groupRange:    "Range",
	groupEncoding: "Encoding",
	groupBench:    "Benchmark",
	groupGoldens:  "Goldens",
	groupScoring:  "Scoring",
	groupAdvanced: "Advanced",
}

// groupOf is the heading command's flag goes under in --help and the man pages: its
// option's, or Advanced for a flag without one (TestOptionTable catches those).
func groupOf(command, flag string) flagGroup {
	if o, ok := optionOf(command, flag); ok {
		return o.group
	}
	return groupAdvanced
}
