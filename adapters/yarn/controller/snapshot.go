package controller

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"
)

// A Snapshot is a recorded view of a ResourceManager: the bodies of the
// GET answers a controller pass reads, keyed by request path, and the time
// they were read. A controller given a SnapshotTransport plans on it
// exactly as on the live RM; it cannot write.
type Snapshot struct {
	// Now is the time of the recording, RFC 3339.
	Now string `json:"now"`
	// Answers maps a path such as /ws/v1/cluster/apps to its JSON body.
	Answers map[string]json.RawMessage `json:"answers"`
}

// ReadSnapshot reads a snapshot written by Recorder.Write.
func ReadSnapshot(r io.Reader) (Snapshot, time.Time, error) {
	var s Snapshot
	if err := json.NewDecoder(r).Decode(&s); err != nil {
		return Snapshot{}, time.Time{}, fmt.Errorf("snapshot: %w", err)
	}
	now, err := time.Parse(time.RFC3339, s.Now)
	if err != nil {
		return Snapshot{}, time.Time{}, fmt.Errorf("snapshot: now %q: %w", s.Now, err)
	}
	if len(s.Answers) == 0 {
		return Snapshot{}, time.Time{}, fmt.Errorf("snapshot: no answers")
	}
	return s, now, nil
}

// SnapshotTransport answers GETs from a Snapshot (by path, the query
// ignored) and refuses every write with 405, so a dry run on a snapshot
// cannot change anything. A path the snapshot lacks is a 404.
type SnapshotTransport struct{ Snapshot Snapshot }

// RoundTrip implements http.RoundTripper.
func (t SnapshotTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		req.Body.Close()
	}
	status, body := http.StatusOK, []byte(nil)
	if req.Method != http.MethodGet {
		status, body = http.StatusMethodNotAllowed, remote("snapshot is read-only: "+req.Method+" "+req.URL.Path)
	} else if b, ok := t.Snapshot.Answers[req.URL.Path]; ok {
		body = b
	} else {
		status, body = http.StatusNotFound, remote("not in the snapshot: "+req.URL.Path)
	}
	return &http.Response{StatusCode: status, Status: http.StatusText(status), Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{"Content-Type": {"application/json"}}, Body: io.NopCloser(bytes.NewReader(body)),
		ContentLength: int64(len(body)), Request: req}, nil
}

func remote(msg string) []byte {
	b, _ := json.Marshal(map[string]any{"RemoteException": map[string]string{"exception": "SnapshotException", "message": msg}})
	return b
}

// Recorder wraps a transport and keeps the body of every successful GET,
// to be written as a Snapshot.
type Recorder struct {
	Base http.RoundTripper // nil means http.DefaultTransport

	mu      sync.Mutex
	answers map[string]json.RawMessage
}

// RoundTrip implements http.RoundTripper.
func (r *Recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	base := r.Base
	if base == nil {
		base = http.DefaultTransport
	}
	resp, err := base.RoundTrip(req)
	if err != nil || req.Method != http.MethodGet || resp.StatusCode != http.StatusOK {
		return resp, err
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(b))
	if json.Valid(b) {
		r.mu.Lock()
		if r.answers == nil {
			r.answers = map[string]json.RawMessage{}
		}
		r.answers[req.URL.Path] = b
		r.mu.Unlock()
	}
	return resp, nil
}

// Write writes the recorded answers as a Snapshot taken at now.
func (r *Recorder) Write(w io.Writer, now time.Time) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	b, err := json.MarshalIndent(Snapshot{Now: now.UTC().Format(time.RFC3339), Answers: r.answers}, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
