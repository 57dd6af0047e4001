package options

import (
	"slices"

	"github.com/spf13/pflag"

	"trackink/knn"
	"trackink/overlay"
	"trackink/tracker"
	"trackink/video"
)

// option is one flag: the one entry that its heading in --help and the man pages, whether
// -h shows it, the names it takes (shell completion, "did you mean", the man pages), the
// library fields it sets (so that a library's *field.Error names the flag, FlagError) and
// whether a style file may set it are read from. A flag's help and default are given where
// it is defined, beside the variable it sets.
type option struct {
	group   flagGroup
	short   bool            // -h shows it
	style   bool            // a style file may set it
	fields  []string        // the library fields it sets, as field.Error names them
	choices func() []string // the names it takes, where it takes a fixed list
}

// table is every command's flags, by name, or "command name" where one command's flag of
// that name is another thing (bench --knn selects the link benchmark; render's --knn the
// search backend). CheckTable checks it against every command's flags and the
// libraries.
var table = map[string]option{
	"height":        {group: groupIO},
	"input":         {group: groupIO, short: true},
	"join segments": {group: groupIO},
	"output":        {group: groupIO, short: true, fields: []string{"video.Options.Output"}},
	"save-tracks":   {group: groupIO},
	"to":            {group: groupIO, choices: func() []string { return []string{"jsonl", "mot"} }},
	"width":         {group: groupIO},
	"yes":           {group: groupIO, short: true},

	"anchor":         {group: groupTracks, choices: func() []string { return []string{"bottom", "centre"} }},
	"class-names":    {group: groupTracks},
	"classes":        {group: groupTracks},
	"confirm":        {group: groupTracks, fields: []string{"tracker.Options.Confirm"}},
	"detect":         {group: groupTracks, short: true, fields: []string{"tracker.Options.Mode"}, choices: tracker.PresetNames},
	"drop-ignored":   {group: groupTracks},
	"eval gt":        {group: groupTracks},
	"eval untracked": {group: groupTracks, choices: func() []string { return []string{"skip", "refuse"} }},
	"frame-base":     {group: groupTracks, choices: func() []string { return []string{"auto", "0", "1"} }},
	"frame-column":   {group: groupTracks},
	"frame-offset":   {group: groupTracks},
	"grace":          {group: groupTracks, fields: []string{"tracker.Options.Grace"}},
	"hue":            {group: groupTracks, fields: []string{"tracker.Options.Hue"}},
	"list-detect":    {group: groupTracks},
	"max-area":       {group: groupTracks, fields: []string{"tracker.Options.MaxArea"}},
	"max-move":       {group: groupTracks, fields: []string{"tracker.Options.MaxMove"}},
	"max-objects":    {group: groupTracks, fields: []string{"tracker.Options.MaxObjects"}},
	"min-area":       {group: groupTracks, fields: []string{"tracker.Options.MinArea"}},
	"min-score":      {group: groupTracks},
	"model":          {group: groupTracks},
	"point-seed":     {group: groupTracks, fields: []string{"tracker.Options.PointSeed"}, choices: func() []string { return tracker.PointSeeds }},
	"point-size":     {group: groupTracks, fields: []string{"tracker.Options.PointSize"}},
	"sensitivity":    {group: groupTracks, fields: []string{"tracker.Options.Sensitivity"}},
	"smooth":         {group: groupTracks, fields: []string{"tracker.Options.Smooth"}},
	"start-score":    {group: groupTracks, fields: []string{"tracker.Options.StartScore"}},
	"threshold":      {group: groupTracks, fields: []string{"tracker.Options.Threshold"}},
	"tracks":         {group: groupTracks, short: true},
	"tracks-size":    {group: groupTracks},
	"untracked":      {group: groupTracks, choices: func() []string { return []string{"skip", "draw"} }},

	"aberration":           {group: groupLook, style: true, fields: []string{"overlay.Style.Camera.Aberration"}},
	"bend-away":            {group: groupLook, style: true, fields: []string{"overlay.Style.BendAway"}},
	"camera-clock":         {group: groupLook, style: true, fields: []string{"overlay.Style.Camera.Clock"}},
	"camera-fps":           {group: groupLook, style: true, fields: []string{"overlay.Style.Camera.FPS"}},
	"camera-name":          {group: groupLook, style: true, fields: []string{"overlay.Style.Camera.Name"}},
	"echo":                 {group: groupLook, style: true, fields: []string{"overlay.Style.Echo"}},
	"echo-decay":           {group: groupLook, style: true, fields: []string{"overlay.Style.EchoDecay"}},
	"echo-offset":          {group: groupLook, style: true, fields: []string{"overlay.Style.EchoOffset"}},
	"echo-scale":           {group: groupLook, style: true, fields: []string{"overlay.Style.EchoScale"}},
	"grain":                {group: groupLook, style: true, fields: []string{"overlay.Style.Camera.Grain"}},
	"grain-color":          {group: groupLook, style: true, fields: []string{"overlay.Style.Camera.GrainColor"}},
	"grain-seed":           {group: groupLook, style: true, fields: []string{"overlay.Style.Camera.Seed"}},
	"link-flow":            {group: groupLook, style: true, fields: []string{"overlay.Style.LinkFlow"}},
	"link-pulse":           {group: groupLook, style: true, fields: []string{"overlay.Style.LinkPulse"}},
	"link-pulse-period":    {group: groupLook, style: true, fields: []string{"overlay.Style.LinkPulsePeriod"}},
	"particle-life":        {group: groupLook, style: true, fields: []string{"overlay.Style.ParticleLife"}},
	"particle-seed":        {group: groupLook, style: true, fields: []string{"overlay.Style.ParticleSeed"}},
	"particles":            {group: groupLook, style: true, fields: []string{"overlay.Style.Particles"}},
	"scanlines":            {group: groupLook, style: true, fields: []string{"overlay.Style.Camera.Scanlines"}},
	"scanline-period":      {group: groupLook, style: true, fields: []string{"overlay.Style.Camera.ScanlinePeriod"}},
	"sort-columns":         {group: groupLook, style: true, fields: []string{"overlay.Style.SortColumns"}},
	"sort-range":           {group: groupLook, style: true, fields: []string{"overlay.Style.SortRange"}},
	"sort-order":           {group: groupLook, style: true, fields: []string{"overlay.Style.SortOrder"}, choices: func() []string { return overlay.SortOrders }},
	"sort-min-run":         {group: groupLook, style: true, fields: []string{"overlay.Style.SortMinRun"}},
	"sort-key":             {group: groupLook, style: true, fields: []string{"overlay.Style.SortKey"}, choices: func() []string { return overlay.SortKeys }},
	"vignette":             {group: groupLook, style: true, fields: []string{"overlay.Style.Camera.Vignette"}},
	"blend":                {group: groupLook, style: true, fields: []string{"overlay.Style.Blend"}, choices: func() []string { return overlay.Blends }},
	"overlay-opacity":      {group: groupLook, style: true, fields: []string{"overlay.Style.OverlayOpacity"}},
	"box-effect":           {group: groupLook, style: true, fields: []string{"overlay.Style.BoxEffects"}},
	"box-from":             {group: groupLook, style: true, fields: []string{"overlay.Style.BoxFrom"}, choices: func() []string { return overlay.BoxFroms }},
	"box-radius":           {group: groupLook, style: true, fields: []string{"overlay.Style.BoxRadius"}},
	"box-size":             {group: groupLook, style: true, fields: []string{"overlay.Style.BoxSize"}},
	"box-stroke":           {group: groupLook, style: true, fields: []string{"overlay.Style.BoxStroke"}},
	"box-style":            {group: groupLook, style: true, fields: []string{"overlay.Style.BoxStyle"}, choices: func() []string { return overlay.BoxStyles }},
	"bracket-length":       {group: groupLook, style: true, fields: []string{"overlay.Style.BracketLength"}},
	"effect-feather":       {group: groupLook, style: true, fields: []string{"overlay.Style.EffectFeather"}},
	"effect-opacity":       {group: groupLook, style: true, fields: []string{"overlay.Style.EffectOpacity"}},
	"effect-strength":      {group: groupLook, style: true, fields: []string{"overlay.Style.EffectStrengths"}},
	"fade":                 {group: groupLook, style: true, fields: []string{"overlay.Style.Fade"}},
	"glow":                 {group: groupLook, style: true, fields: []string{"overlay.Style.Glow"}},
	"halo":                 {group: groupLook, style: true, fields: []string{"overlay.Style.Halo"}},
	"halo-opacity":         {group: groupLook, style: true, fields: []string{"overlay.Style.HaloOpacity"}},
	"glow-opacity":         {group: groupLook, style: true, fields: []string{"overlay.Style.GlowOpacity"}},
	"list-looks":           {group: groupLook},
	"look":                 {group: groupLook, short: true, choices: func() []string { names, _ := overlay.PresetNames(); return names }},
	"bench look":           {group: groupLook, short: true, choices: func() []string { names, _ := overlay.PresetNames("seed"); return names }},
	"jitter":               {group: groupLook, style: true, fields: []string{"overlay.Style.Jitter"}},
	"min-life":             {group: groupLook, style: true, fields: []string{"overlay.Style.MinLife"}},
	"point-radius":         {group: groupLook, style: true, fields: []string{"overlay.Style.PointRadius"}},
	"point-stroke":         {group: groupLook, style: true, fields: []string{"overlay.Style.PointStroke"}},
	"point-style":          {group: groupLook, style: true, fields: []string{"overlay.Style.PointStyle"}, choices: func() []string { return overlay.PointStyles }},
	"roundness":            {group: groupLook, style: true, fields: []string{"overlay.Style.Roundness"}},
	"style":                {group: groupLook, short: true},
	"trail":                {group: groupLook, short: true, style: true, fields: []string{"overlay.Style.Trail"}},
	"trail-smooth":         {group: groupLook, style: true, fields: []string{"overlay.Style.TrailSmooth"}},
	"trail-width":          {group: groupLook, style: true, fields: []string{"overlay.Style.TrailWidth"}},
	"camera-tint":          {group: groupLook, style: true, fields: []string{"overlay.Style.Camera.Tint"}},
	"camera-tint-strength": {group: groupLook, style: true, fields: []string{"overlay.Style.Camera.TintStrength"}},

	"class-label":       {group: groupLabels, style: true, fields: []string{"overlay.Style.ClassLabels"}},
	"label-anchor":      {group: groupLabels, style: true, fields: []string{"overlay.Style.LabelAnchor"}, choices: func() []string { return overlay.LabelAnchors }},
	"label-offset":      {group: groupLabels, style: true, fields: []string{"overlay.Style.LabelOffset"}},
	"label-outline":     {group: groupLabels, style: true, fields: []string{"overlay.Style.LabelOutline"}},
	"label-line-frames": {group: groupLabels, style: true, fields: []string{"overlay.Style.LabelLineFrames"}},
	"label-lines":       {group: groupLabels, style: true, fields: []string{"overlay.Style.LabelLines"}},
	"label-reveal":      {group: groupLabels, style: true, fields: []string{"overlay.Style.LabelReveal"}},
	"font":              {group: groupLabels, style: true, fields: []string{"overlay.Style.Font"}},
	"label":             {group: groupLabels, style: true, fields: []string{"overlay.Style.LabelFormat"}},
	"label-size":        {group: groupLabels, style: true, fields: []string{"overlay.Style.LabelSize"}},
	"label-words":       {group: groupLabels, style: true, fields: []string{"overlay.Style.LabelWords"}},
	"labels-overlap":    {group: groupLabels, style: true},
	"no-labels":         {group: groupLabels, style: true},

	"bend":                {group: groupLinks, style: true, fields: []string{"overlay.Style.Bend"}},
	"dash":                {group: groupLinks, style: true, fields: []string{"overlay.Style.Dash"}},
	"curve-width":         {group: groupLinks, style: true, fields: []string{"overlay.Style.CurveWidth"}},
	"hysteresis":          {group: groupLinks, style: true, fields: []string{"knn.Options.Hysteresis"}},
	"k":                   {group: groupLinks, style: true, fields: []string{"knn.Options.K"}},
	"knn":                 {group: groupLinks, fields: []string{"knn.Options.Backend"}, choices: knn.Backends},
	"knn-backend":         {group: groupLinks, fields: []string{"knn.Options.Backend"}, choices: knn.Backends},
	"line-width":          {group: groupLinks, style: true, fields: []string{"overlay.Style.LineWidth"}},
	"link-fade":           {group: groupLinks, style: true, fields: []string{"overlay.Style.LinkFade"}},
	"link-reach":          {group: groupLinks, style: true, fields: []string{"overlay.Style.LinkReach"}},
	"link-amp":            {group: groupLinks, style: true, fields: []string{"overlay.Style.LinkAmp"}},
	"link-freq":           {group: groupLinks, style: true, fields: []string{"overlay.Style.LinkFreq"}},
	"link-shape":          {group: groupLinks, style: true, fields: []string{"overlay.Style.LinkShape"}, choices: func() []string { return overlay.LinkShapes }},
	"link-speed":          {group: groupLinks, style: true, fields: []string{"overlay.Style.LinkSpeed"}},
	"link-turns":          {group: groupLinks, style: true, fields: []string{"overlay.Style.LinkTurns"}},
	"link-style":          {group: groupLinks, style: true, fields: []string{"overlay.Style.LinkStyle"}, choices: func() []string { return overlay.LinkStyles }},
	"links":               {group: groupLinks, style: true, fields: []string{"knn.Options.Graph"}, choices: func() []string { return knn.Graphs }},
	"max-degree":          {group: groupLinks, style: true, fields: []string{"knn.Options.MaxDegree"}},
	"max-dist":            {group: groupLinks, style: true, fields: []string{"knn.Options.MaxDist"}},
	"max-dy":              {group: groupLinks, style: true, fields: []string{"knn.Options.MaxDY"}},
	"max-links-per-frame": {group: groupLinks, style: true},
	"max-links-per-point": {group: groupLinks, style: true},

	"box-color":           {group: groupColours, style: true},
	"box-opacity":         {group: groupColours, style: true, fields: []string{"overlay.Style.BoxOpacity"}},
	"class-colors":        {group: groupColours, style: true},
	"color-by":            {group: groupColours, short: true, style: true, choices: func() []string { return []string{"track", "class", "source"} }},
	"fill-color":          {group: groupColours, style: true},
	"fill-opacity":        {group: groupColours, style: true, fields: []string{"overlay.Style.FillOpacity"}},
	"label-color":         {group: groupColours, style: true},
	"label-opacity":       {group: groupColours, style: true, fields: []string{"overlay.Style.LabelOpacity"}},
	"label-text-color":    {group: groupColours, style: true},
	"label-outline-color": {group: groupColours, style: true},
	"link-color":          {group: groupColours, style: true, choices: func() []string { return []string{"auto", "gradient"} }},
	"link-opacity":        {group: groupColours, style: true, fields: []string{"overlay.Style.LinkOpacity"}},
	"palette":             {group: groupColours, style: true, fields: []string{"overlay.Style.Palette"}, choices: overlay.Palettes},
	"point-color":         {group: groupColours, style: true},
	"point-opacity":       {group: groupColours, style: true, fields: []string{"overlay.Style.PointOpacity"}},
	"trail-color":         {group: groupColours, style: true},
	"trail-opacity":       {group: groupColours, style: true, fields: []string{"overlay.Style.TrailOpacity"}},

	"point-fill-opacity": {group: groupColours, style: true, fields: []string{"overlay.Style.PointFillOpacity"}},

	"end":    {group: groupRange, short: true, fields: []string{"video.Options.End"}},
	"frame":  {group: groupRange, short: true},
	"frames": {group: groupRange},
	"start":  {group: groupRange, short: true},

	"bitrate":    {group: groupEncoding, fields: []string{"video.Options.Bitrate"}},
	"crf":        {group: groupEncoding, short: true, fields: []string{"video.Options.CRF", "video.Options.Lossless"}}, // --crf 0 is lossless
	"encoder":    {group: groupEncoding, fields: []string{"video.Options.Encoder"}, choices: video.Encoders},
	"layer-only": {group: groupEncoding, short: true},
	"lossless":   {group: groupEncoding, fields: []string{"video.Options.Lossless"}},
	"preset":     {group: groupEncoding, fields: []string{"video.Options.Preset"}, choices: video.Presets},
	// bench --e2e codes with libx264, demo with auto (libx264 or NVENC): the names each takes.
	"bench preset": {group: groupEncoding, fields: []string{"video.Options.Preset"}, choices: func() []string { return video.EncoderPresets("libx264") }},
	"demo preset":  {group: groupEncoding, fields: []string{"video.Options.Preset"}, choices: func() []string { return video.EncoderPresets("auto") }},
	"profile":      {group: groupEncoding, fields: []string{"video.Options.Profile"}, choices: video.Profiles},
	"threads":      {group: groupEncoding, fields: []string{"video.Options.Threads"}},

	"bench detect":  {group: groupBench, choices: func() []string { return append([]string{"all", "people"}, tracker.Modes...) }},
	"bench e2e":     {group: groupBench},
	"bench effects": {group: groupBench},
	"bench format":  {group: groupBench, choices: func() []string { return []string{"yuv420p", "nv12", "device", "yuv420p,nv12"} }},
	"bench json":    {group: groupBench},
	"bench knn":     {group: groupBench},
	"bench no-twin": {group: groupBench},
	"bench points":  {group: groupBench},
	"bench scene":   {group: groupBench, choices: func() []string { return []string{"seed", "mot17"} }}, // mot17: --e2e's

	"golden dir":    {group: groupGoldens},
	"golden list":   {group: groupGoldens},
	"golden only":   {group: groupGoldens},
	"golden out":    {group: groupGoldens},
	"golden update": {group: groupGoldens},

	"eval by-class": {group: groupScoring},
	"eval iou":      {group: groupScoring},
	"eval json":     {group: groupScoring},
	"eval rules":    {group: groupScoring, choices: rulesChoices},
	"render gt":     {group: groupScoring},
	"render iou":    {group: groupScoring},
	"render rules":  {group: groupScoring, choices: rulesChoices},

	"analysis-size": {group: groupAdvanced, fields: []string{"tracker.Options.AnalysisSize"}},
	"backend":       {group: groupAdvanced, choices: func() []string { return []string{"cpu", "cuda", "emu", "auto"} }},
	"hwaccel":       {group: groupAdvanced, fields: []string{"video.Options.HWAccel"}, choices: video.HWAccels},
	"odd-size":      {group: groupAdvanced, fields: []string{"video.Options.OddSize"}, choices: func() []string { return []string{"pad", "crop", "444"} }},
	"orientation":   {group: groupAdvanced, choices: func() []string { return []string{"display", "stored"} }},
	"quiet":         {group: groupAdvanced},
	"scene":         {group: groupAdvanced, choices: func() []string { return []string{"seed"} }},
	"segment":       {group: groupAdvanced},
	"stats-json":    {group: groupAdvanced},
	"verbose":       {group: groupAdvanced},
	"video-stream":  {group: groupAdvanced, fields: []string{"video.Options.VideoStream"}},
	"workers":       {group: groupAdvanced, fields: []string{"overlay.BackendOptions.Workers"}},
}

// rulesChoices are --rules' names (eval's, render --gt's).
func rulesChoices() []string { return []string{"auto", "motmetrics", "trackeval"} }

// optionOf returns command's flag's entry; ok is false for a flag the table lacks.
func optionOf(command, flag string) (o option, ok bool) {
	if o, ok = table[command+" "+flag]; ok {
		return o, true
	}
	o, ok = table[flag]
	return o, ok
}

// flagsOfField returns the flags of fs that set the library field: the one the error of a
// library's Validate names.
func flagsOfField(fs *pflag.FlagSet, field string) []*pflag.Flag {
	var flags []*pflag.Flag
	fs.VisitAll(func(f *pflag.Flag) {
		if o, ok := optionOf(fs.Name(), f.Name); ok && slices.Contains(o.fields, field) {
			flags = append(flags, f)
		}
	})
	return flags
}

// ownField is the first field flag name of fs sets, its own ("" for none).
func ownField(fs *pflag.FlagSet, name string) string {
	if o, ok := optionOf(fs.Name(), name); ok && len(o.fields) > 0 {
		return o.fields[0]
	}
	return ""
}

// styleKeys are the flags of fs that a style file may set, in fs's order.
func styleKeys(fs *pflag.FlagSet) []string {
	var keys []string
	fs.VisitAll(func(f *pflag.Flag) {
		if o, ok := optionOf(fs.Name(), f.Name); ok && o.style {
			keys = append(keys, f.Name)
		}
	})
	return keys
}
