package video

// Checksums of segments (issue #37). A segment travels between its render and the join
// (a shared file system, a copy between clusters), and a bit flipped on the way in the
// middle of its payload leaves a file that opens, has the frames its record says and joins
// into a video that fails to decode. So a segment's record carries a SHA-256 of its packets
// (segmentRecord.Packets), and the join verifies every segment against it before it creates
// its output: a damaged segment is refused by name, and nothing is written.
//
// The checksum covers the packets as a demuxer reads them back from the finished file, not as
// the encoder handed them over: the MP4 muxer rewrites H.264 and HEVC packets (start codes
// become length prefixes), so only the file's own packets are what the join copies. The
// record lives in the movie header, which the MP4 muxer writes last, with the trailer; so the
// render writes the record with a placeholder as long as a digest, reads the finished file
// back, and writes the digest over the placeholder (output.seal), moving no byte.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"trackink/outfile"

	"github.com/asticode/go-astiav"
)

// DamagedSegmentError is a segment file that is not what its render wrote: its packets do
// not match the checksum in its record, or it cannot be opened or read at all (truncated).
// Join refuses it before writing anything; rendering segment Index of Count again replaces
// it.
type DamagedSegmentError struct {
	Path         string
	Index, Count int
	Why          string // what is wrong with it
}

func (e *DamagedSegmentError) Error() string {
	return fmt.Sprintf("video: damaged segment %s (segment %d of %d): %s", e.Path, e.Index, e.Count, e.Why)
}

// unsealed is a record's Packets until the file is sealed: as long as a hex SHA-256, so that
// the sealed record is as long as the one the muxer wrote.
var unsealed = strings.Repeat("-", 2*sha256.Size)

// packetDigest reads the video packets of in (a segment: one video stream and perhaps its
// timecode track, just opened) as the join reads them and returns their checksum: a SHA-256 of each packet's pts, dts, key flag,
// size and bytes, in order; and the bytes of payload read. The timestamps and flags come
// from the movie header's sample tables: damage there re-times frames without touching the
// payload.
func packetDigest(ctx context.Context, in *input) (string, int64, error) {
	stopInterrupt := in.cancelOn(ctx)
	defer stopInterrupt()
	h := sha256.New()
	var head []byte
	var n int64
	p := astiav.AllocPacket()
	defer p.Free()
	for {
		err := in.fc.ReadFrame(p)
		switch {
		case errors.Is(err, astiav.ErrEof):
			return hex.EncodeToString(h.Sum(nil)), n, nil
		case ctx.Err() != nil:
			return "", n, ctx.Err()
		case err != nil:
			return "", n, fmt.Errorf("reading its packets: %w", err)
		case p.StreamIndex() != in.vs.Index():
			p.Unref() // its timecode track (sameVideo)
			continue
		}
		head = binary.LittleEndian.AppendUint64(head[:0], uint64(p.Pts()))
		head = binary.LittleEndian.AppendUint64(head, uint64(p.Dts()))
		head = binary.LittleEndian.AppendUint32(head, uint32(p.Size()))
		head = append(head, boolByte(p.Flags().Has(astiav.PacketFlagKey)))
		h.Write(head)
		h.Write(p.Data())
		n += int64(p.Size())
		p.Unref()
	}
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// seal is a segment's output.seal: f is the finished file, written with the record r, its
// Packets unsealed, as written (the JSON the muxer stored). It reads f's packets back and
// writes their checksum over the placeholder.
func (r segmentRecord) seal(f *outfile.PartialFile, written []byte) error {
	in, err := openInputProbed(context.Background(), f.Name(), 1, false)
	if err != nil {
		return fmt.Errorf("video: reading segment %s back for its checksum: %w", f.Name(), err)
	}
	digest, _, err := packetDigest(context.Background(), in)
	in.close()
	if err != nil {
		return fmt.Errorf("video: reading segment %s back for its checksum: %w", f.Name(), err)
	}
	r.Packets = digest
	sealed, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("video: encoding the segment record: %w", err)
	}
	if len(sealed) != len(written) {
		return fmt.Errorf("video: the sealed segment record is %d bytes, the one written %d", len(sealed), len(written))
	}
	off, size, err := findBox(f.File, "moov")
	if err != nil {
		return fmt.Errorf("video: segment %s: %w", f.Name(), err)
	}
	moov := make([]byte, size)
	if _, err := f.ReadAt(moov, off); err != nil {
		return fmt.Errorf("video: segment %s: reading its movie header: %w", f.Name(), err)
	}
	at := bytes.Index(moov, written)
	if at < 0 || bytes.Contains(moov[at+1:], written) {
		return fmt.Errorf("video: segment %s: its movie header holds its record %d times, want once", f.Name(), bytes.Count(moov, written))
	}
	if _, err := f.WriteAt(sealed, off+int64(at)); err != nil {
		return fmt.Errorf("video: sealing segment %s: %w", f.Name(), err)
	}
	return nil
}

// findBox returns the offset and size of the first top-level MP4 box of type typ in f.
func findBox(f *os.File, typ string) (off, size int64, err error) {
	st, err := f.Stat()
	if err != nil {
		return 0, 0, err
	}
	var head [16]byte
	for off < st.Size() {
		if _, err := f.ReadAt(head[:8], off); err != nil {
			return 0, 0, fmt.Errorf("reading the box at byte %d: %w", off, err)
		}
		size = int64(binary.BigEndian.Uint32(head[:4]))
		switch size {
		case 0: // the box runs to the end of the file
			size = st.Size() - off
		case 1: // a 64-bit size follows the type (a media data box over 4 GiB)
			if _, err := f.ReadAt(head[8:16], off); err != nil {
				return 0, 0, fmt.Errorf("reading the box at byte %d: %w", off, err)
			}
			size = int64(binary.BigEndian.Uint64(head[8:16]))
		}
		if size < 8 || off+size > st.Size() {
			return 0, 0, fmt.Errorf("the box at byte %d claims %d bytes of a %d-byte file", off, size, st.Size())
		}
		if string(head[4:8]) == typ {
			return off, size, nil
		}
		off += size
	}
	return 0, 0, fmt.Errorf("no %s box", typ)
}

// verifySegments checks every segment's packets against the checksum in its record and
// returns the bytes of payload read; an error names the first damaged segment in index
// order. It reads every segment once more before the join copies it (a damaged segment must
// be refused before anything is written), several at a time: the checksum is CPU work, and
// cluster storage serves parallel reads faster.
func verifySegments(ctx context.Context, segs []*segmentFile) (int64, error) {
	read, errs := make([]int64, len(segs)), make([]error, len(segs))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(len(segs), runtime.GOMAXPROCS(0)) {
		wg.Go(func() {
			for i := range next {
				read[i], errs[i] = verifySegment(ctx, segs[i])
			}
		})
	}
	for i := range segs {
		next <- i
	}
	close(next)
	wg.Wait()
	var total int64
	for _, n := range read {
		total += n
	}
	if err := ctx.Err(); err != nil {
		return total, err
	}
	for _, err := range errs {
		if err != nil {
			return total, err
		}
	}
	return total, nil
}

// verifySegment checks segment s's packets against the checksum in its record and returns
// the bytes of payload read. It reads the file the join opened (segmentFile.open), the one
// whose record it checks against and whose packets it copies, whatever s.path names by now.
func verifySegment(ctx context.Context, s *segmentFile) (int64, error) {
	in, err := s.open(ctx)
	if errors.Is(err, ErrSegmentChanged) {
		return 0, err
	}
	var digest string
	var n int64
	if err == nil {
		digest, n, err = packetDigest(ctx, in)
		in.close()
	}
	switch {
	case ctx.Err() != nil:
		return n, ctx.Err()
	case err != nil:
		return n, &DamagedSegmentError{Path: s.path, Index: s.rec.Index, Count: s.rec.Count, Why: err.Error()}
	case digest != s.rec.Packets:
		return n, &DamagedSegmentError{Path: s.path, Index: s.rec.Index, Count: s.rec.Count,
			Why: "its packets do not match the checksum its render recorded (the file changed after it was written)"}
	}
	return n, nil
}

// segmentNumber reads which segment path is from its name (SegmentName), for a file too
// damaged to read its record.
var segmentNumber = regexp.MustCompile(`\.seg-([0-9]+)-of-([0-9]+)\.mp4$`)

// unreadableSegment is the error for the segment at path that could not be opened (err): a
// DamagedSegmentError where the file is there and its name says which segment it is.
func unreadableSegment(path string, err error) error {
	m := segmentNumber.FindStringSubmatch(filepath.Base(path))
	if m == nil || errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("segment %s: %w", path, err)
	}
	index, _ := strconv.Atoi(m[1])
	count, _ := strconv.Atoi(m[2])
	return &DamagedSegmentError{Path: path, Index: index, Count: count, Why: "it cannot be opened (truncated?): " + err.Error()}
}
