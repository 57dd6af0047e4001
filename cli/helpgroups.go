package cli

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

// flagPlace is where a flag goes in help: its heading, and whether -h (the short help)
// shows it too.
type flagPlace struct {
	group flagGroup
	short bool
}

// flagPlaces puts every flag of every command under a heading: a new flag needs one line
// here, and TestEveryFlagHasAHeading fails until it has one. A key is a flag's name, or
// "command name" where one command's flag of that name is another thing (bench --knn).
var flagPlaces = map[string]flagPlace{
	"input":  {groupIO, true},
	"output": {groupIO, true},
	"yes":    {groupIO, true},
	"width":  {groupIO, false},
	"height": {groupIO, false},
	"to":     {groupIO, false},

	"tracks":       {groupTracks, true},
	"anchor":       {groupTracks, false},
	"drop-ignored": {groupTracks, false},
	"frame-base":   {groupTracks, false},
	"frame-offset": {groupTracks, false},
	"untracked":    {groupTracks, false},
	"frame-column": {groupTracks, false},
	"class-names":  {groupTracks, false},
	"tracks-size":  {groupTracks, false},

	"look":           {groupLook, true},
	"style":          {groupLook, true},
	"list-looks":     {groupLook, false},
	"point-radius":   {groupLook, false},
	"box-stroke":     {groupLook, false},
	"roundness":      {groupLook, false},
	"box-style":      {groupLook, false},
	"bracket-length": {groupLook, false},
	"trail":          {groupLook, true},
	"trail-width":    {groupLook, false},
	"trail-smooth":   {groupLook, false},
	"min-life":       {groupLook, false},
	"fade":           {groupLook, false},
	"point-style":    {groupLook, false},
	"box-from":       {groupLook, false},
	"box-radius":     {groupLook, false},
	"blend":          {groupLook, false},

	"label":          {groupLabels, false},
	"no-labels":      {groupLabels, false},
	"label-size":     {groupLabels, false},
	"font":           {groupLabels, false},
	"label-words":    {groupLabels, false},
	"labels-overlap": {groupLabels, false},

	"line-width":          {groupLinks, false},
	"curve-width":         {groupLinks, false},
	"bend":                {groupLinks, false},
	"link-style":          {groupLinks, false},
	"links":               {groupLinks, false},
	"link-fade":           {groupLinks, false},
	"link-reach":          {groupLinks, false},
	"k":                   {groupLinks, false},
	"max-dy":              {groupLinks, false},
	"max-dist":            {groupLinks, false},
	"max-degree":          {groupLinks, false},
	"max-links-per-point": {groupLinks, false},
	"max-links-per-frame": {groupLinks, false},
	"hysteresis":          {groupLinks, false},
	"knn":                 {groupLinks, false},
	"knn-backend":         {groupLinks, false},

	"color-by":         {groupColours, true},
	"class-colors":     {groupColours, false},
	"palette":          {groupColours, false},
	"box-color":        {groupColours, false},
	"fill-color":       {groupColours, false},
	"link-color":       {groupColours, false},
	"point-color":      {groupColours, false},
	"trail-color":      {groupColours, false},
	"label-color":      {groupColours, false},
	"label-text-color": {groupColours, false},
	"box-opacity":      {groupColours, false},
	"fill-opacity":     {groupColours, false},
	"link-opacity":     {groupColours, false},
	"point-opacity":    {groupColours, false},
	"label-opacity":    {groupColours, false},
	"trail-opacity":    {groupColours, false},

	"frame":  {groupRange, true},
	"start":  {groupRange, true},
	"end":    {groupRange, true},
	"frames": {groupRange, false},

	"encoder":    {groupEncoding, false},
	"crf":        {groupEncoding, true},
	"lossless":   {groupEncoding, false},
	"layer-only": {groupEncoding, true},
	"preset":     {groupEncoding, false},
	"profile":    {groupEncoding, false},
	"bitrate":    {groupEncoding, false},
	"threads":    {groupEncoding, false},

	"bench scene":   {groupBench, false},
	"bench format":  {groupBench, false},
	"bench json":    {groupBench, false},
	"bench knn":     {groupBench, false},
	"bench points":  {groupBench, false},
	"bench e2e":     {groupBench, false},
	"bench no-twin": {groupBench, false},

	"golden dir":    {groupGoldens, false},
	"golden out":    {groupGoldens, false},
	"golden update": {groupGoldens, false},
	"golden only":   {groupGoldens, false},
	"golden list":   {groupGoldens, false},

	"join segments": {groupIO, false},

	"eval gt":   {groupTracks, false},
	"eval iou":  {groupScoring, false},
	"eval json": {groupScoring, false},

	"scene":        {groupAdvanced, false},
	"backend":      {groupAdvanced, false},
	"workers":      {groupAdvanced, false},
	"hwaccel":      {groupAdvanced, false},
	"video-stream": {groupAdvanced, false},
	"orientation":  {groupAdvanced, false},
	"odd-size":     {groupAdvanced, false},
	"segment":      {groupAdvanced, false},
	"quiet":        {groupAdvanced, false},
	"verbose":      {groupAdvanced, false},
	"stats-json":   {groupAdvanced, false},
}

// placeOf returns where command's flag goes in its help; ok is false for a flag this
// table lacks.
func placeOf(command, flag string) (p flagPlace, ok bool) {
	if p, ok = flagPlaces[command+" "+flag]; ok {
		return p, true
	}
	p, ok = flagPlaces[flag]
	return p, ok
}

// groupOf is the heading command's flag goes under in --help and the man pages: its
// place's, or Advanced for a flag without one (TestEveryFlagHasAHeading catches those).
func groupOf(command, flag string) flagGroup {
	if p, ok := placeOf(command, flag); ok {
		return p.group
	}
	return groupAdvanced
}
