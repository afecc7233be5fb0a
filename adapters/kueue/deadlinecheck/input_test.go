package deadlinecheck

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestParseDeadline(t *testing.T) {
	created := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name, value string
		want        time.Time
	}{
		{"rfc3339 utc", "2026-11-24T18:00:00Z", time.Date(2026, 11, 24, 18, 0, 0, 0, time.UTC)},
		{"rfc3339 offset", "2026-11-24T19:00:00+01:00", time.Date(2026, 11, 24, 18, 0, 0, 0, time.UTC)},
		{"rfc3339 fraction", "2026-11-24T18:00:00.5Z", time.Date(2026, 11, 24, 18, 0, 0, 5e8, time.UTC)},
		{"relative", "90m", created.Add(90 * time.Minute)},
		{"relative compound", "2h30m", created.Add(150 * time.Minute)},
		{"spaces", "  1h ", created.Add(time.Hour)},
		{"past absolute is allowed", "2020-01-01T00:00:00Z", time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseDeadline(tt.value, created)
			if err != nil {
				t.Fatal(err)
			}
			if !got.Equal(tt.want) {
				t.Errorf("ParseDeadline(%q) = %v, want %v", tt.value, got, tt.want)
			}
		})
	}
}

func TestParseDeadlineBad(t *testing.T) {
	for _, v := range []string{"", "tomorrow", "-5m", "0s", "2026-13-01T00:00:00Z", "2026-11-24 18:00", "18:00", "1d", "5"} {
		t.Run(v, func(t *testing.T) {
			_, err := ParseDeadline(v, time.Unix(0, 0))
			var ie *InputError
			if !errors.As(err, &ie) {
				t.Fatalf("ParseDeadline(%q) error = %v, want *InputError", v, err)
			}
			if ie.Field != "annotation "+DeadlineAnnotation || ie.Value != v {
				t.Errorf("error names %q = %q, want the annotation and %q", ie.Field, ie.Value, v)
			}
			msg := err.Error()
			if !strings.Contains(msg, DeadlineAnnotation) || !strings.Contains(msg, `"`+v+`"`) {
				t.Errorf("message %q does not name the annotation and the value", msg)
			}
		})
	}
}

// ParseDeadline never panics; it gives a time or an *InputError naming the
// annotation and the value, and a duration counts from the creation time.
func FuzzParseDeadline(f *testing.F) {
	for _, s := range []string{"90m", "2026-11-24T18:00:00Z", "", "-1h", "1e9h", "2026-02-30T00:00:00Z", "9999999999h"} {
		f.Add(s)
	}
	created := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, v string) {
		got, err := ParseDeadline(v, created)
		if err != nil {
			var ie *InputError
			if !errors.As(err, &ie) || ie.Value != v || ie.Field != "annotation "+DeadlineAnnotation {
				t.Fatalf("ParseDeadline(%q) error %v", v, err)
			}
			return
		}
		if d, derr := time.ParseDuration(strings.TrimSpace(v)); derr == nil && !got.Equal(created.Add(d)) {
			if _, perr := time.Parse(time.RFC3339, strings.TrimSpace(v)); perr != nil {
				t.Fatalf("ParseDeadline(%q) = %v, want created + %v", v, got, d)
			}
		}
	})
}
