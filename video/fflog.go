package video

import (
	"strings"
	"sync"

	"github.com/asticode/go-astiav"
)

// FFmpeg logs through one process-wide callback. trackink keeps FFmpeg at error level, forwards
// its lines to the FFmpegLog of every running Transcode (normally one; none unless asked) and
// keeps the last few, so a failure can say why: NVENC's return code is a bare "Function not
// implemented" while its log line says "No capable devices found".

type logSink struct {
	log    func(string) // Options.FFmpegLog, or nil
	mu     sync.Mutex
	recent []string
	muted  bool // while capturing: the lines end up in an error or fallback message instead
	// The lines in which a decoder said it concealed errors (concealedMark): how many, and
	// the first.
	concealed      int
	firstConcealed string
}

// concealedMark is how FFmpeg's H.264 decoder says it concealed errors in a frame ("error
// while decoding MB 11 25, bytestream -6"). With frame threads it does not always mark that
// frame (decode_error_flags): the last frame of an MPEG-TS cut short was marked in some runs
// of the same render and not in others, the line logged in every run.
const concealedMark = "error while decoding MB"

var ffLog struct {
	once  sync.Once
	mu    sync.Mutex
	sinks map[*logSink]struct{}
}

const recentLines = 4

// attachFFmpegLog routes FFmpeg's messages to log (nil: only kept for errors) until detach
// is called.
func attachFFmpegLog(log func(string)) (s *logSink, detach func()) {
	ffLog.once.Do(func() {
		ffLog.sinks = map[*logSink]struct{}{}
		astiav.SetLogLevel(astiav.LogLevelError)
		astiav.SetLogCallback(forwardFFmpegLog)
	})
	s = &logSink{log: log}
	ffLog.mu.Lock()
	ffLog.sinks[s] = struct{}{}
	ffLog.mu.Unlock()
	return s, func() {
		ffLog.mu.Lock()
		delete(ffLog.sinks, s)
		ffLog.mu.Unlock()
	}
}

// forwardFFmpegLog runs on FFmpeg's threads (decoder frame threads included).
func forwardFFmpegLog(c astiav.Classer, _ astiav.LogLevel, _, msg string) {
	msg = strings.TrimSpace(msg)
	if msg == "" {
		return
	}
	concealed := strings.Contains(msg, concealedMark)
	if c != nil {
		if cl := c.Class(); cl != nil {
			concealed = concealed && cl.Name() == "AVCodecContext"
			msg = cl.ItemName() + ": " + msg
		}
	}
	ffLog.mu.Lock()
	defer ffLog.mu.Unlock()
	for s := range ffLog.sinks {
		s.mu.Lock()
		if concealed {
			if s.concealed == 0 {
				s.firstConcealed = msg
			}
			s.concealed++
		}
		s.recent = append(s.recent, msg)
		if len(s.recent) > recentLines {
			s.recent = s.recent[1:]
		}
		shown := !s.muted && s.log != nil
		s.mu.Unlock()
		if shown {
			s.log("ffmpeg: " + msg)
		}
	}
}

// concealedErrors returns how many lines said a decoder concealed errors (concealedMark),
// and the first of them.
func (s *logSink) concealedErrors() (int, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.concealed, s.firstConcealed
}

// capture starts collecting FFmpeg's lines instead of logging them, before an operation
// whose failure should cite them.
func (s *logSink) capture() {
	s.mu.Lock()
	s.recent, s.muted = nil, true
	s.mu.Unlock()
}

// release ends a capture and returns the lines FFmpeg logged meanwhile.
func (s *logSink) release() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.muted = false
	r := s.recent
	s.recent = nil
	return r
}

// unshown returns the last lines FFmpeg logged outside a capture when they were not shown
// (no FFmpegLog), to explain a failure, and forgets them.
func (s *logSink) unshown() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.recent
	s.recent = nil
	if s.log != nil {
		return nil
	}
	return r
}

// because formats FFmpeg's lines to append to the error they explain: " (FFmpeg: line;
// line)", or "" when there are none.
func because(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	return " (FFmpeg: " + strings.Join(lines, "; ") + ")"
}
