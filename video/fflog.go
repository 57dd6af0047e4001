package video

import (
	"strings"
	"sync"

	"github.com/asticode/go-astiav"
)

// FFmpeg logs through one process-wide callback. trackink keeps FFmpeg at error level, forwards
// its lines to the Log of every running Transcode (normally one) and keeps the last few, so a
// failed open can say why: NVENC's return code is a bare "Function not implemented" while its
// log line says "No capable devices found".

type logSink struct {
	log    func(string)
	mu     sync.Mutex
	recent []string
	muted  bool // while capturing: the lines end up in an error or fallback message instead
}

var ffLog struct {
	once  sync.Once
	mu    sync.Mutex
	sinks map[*logSink]struct{}
}

const recentLines = 4

// attachFFmpegLog routes FFmpeg's messages to log until detach is called.
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
	if c != nil {
		if cl := c.Class(); cl != nil {
			msg = cl.ItemName() + ": " + msg
		}
	}
	ffLog.mu.Lock()
	defer ffLog.mu.Unlock()
	for s := range ffLog.sinks {
		s.mu.Lock()
		s.recent = append(s.recent, msg)
		if len(s.recent) > recentLines {
			s.recent = s.recent[1:]
		}
		muted := s.muted
		s.mu.Unlock()
		if !muted {
			s.log("ffmpeg: " + msg)
		}
	}
}

// capture starts collecting FFmpeg's lines instead of logging them, before an operation
// whose failure should cite them.
func (s *logSink) capture() {
	s.mu.Lock()
	s.recent, s.muted = nil, true
	s.mu.Unlock()
}

// release ends a capture and returns what FFmpeg said meanwhile, formatted to append to an
// error: " (line; line)", or "" if it said nothing.
func (s *logSink) release() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.muted = false
	if len(s.recent) == 0 {
		return ""
	}
	return " (" + strings.Join(s.recent, "; ") + ")"
}
