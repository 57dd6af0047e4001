package options

import (
	"fmt"
	"math"

	"github.com/spf13/pflag"

	"trackink/eval"
)

// Scoring are the flags that say how tracks are matched to ground truth, as trackink eval
// matches them: --iou and --rules (render --gt's; eval's read the same).
type Scoring struct {
	IoU   float64
	Rules string
}

// Register adds --iou and --rules to fs, with eval's defaults.
func (s *Scoring) Register(fs *pflag.FlagSet) {
	fs.Float64Var(&s.IoU, "iou", eval.DefaultIoU, "the least IoU at which a track box may match a ground-truth box, above 0 and at most 1 (as trackink eval)")
	fs.StringVar(&s.Rules, "rules", "auto", "whose rules to score by, as trackink eval: motmetrics (py-motmetrics), "+
		"trackeval (MOTChallenge's and KITTI's official scorer), or auto (trackeval for KITTI ground truth, motmetrics otherwise)")
}

// Check refuses an --iou outside (0, 1] and unknown --rules, as usage errors, and returns
// the rules; auto where they are to be chosen by the ground truth's format.
func (s *Scoring) Check() (rules eval.Rules, auto bool, err error) {
	if math.IsNaN(s.IoU) || s.IoU <= 0 || s.IoU > 1 {
		return 0, false, UsageError{fmt.Errorf("--iou %g: want a number above 0 and at most 1", s.IoU)}
	}
	if s.Rules == "auto" {
		return 0, true, nil
	}
	if rules, err = eval.ParseRules(s.Rules); err != nil {
		return 0, false, UsageError{fmt.Errorf("--rules %s: want motmetrics, trackeval or auto", s.Rules)}
	}
	return rules, false, nil
}
