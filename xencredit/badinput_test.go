package xencredit

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/internal/extremes"
	"github.com/schedkit/schedkit/internal/testkit"
)

// wantField asserts that err is a *ValueError on field.
var wantField = testkit.FieldCheck(ErrBadInput, func(e *ValueError) string { return e.Field })

func TestConfigValidate(t *testing.T) {
	if err := DefaultConfig(2).Validate(); err != nil {
		t.Fatalf("default: %v", err)
	}
	if got := DefaultConfig(2).TickPeriod(); got != 10*time.Millisecond {
		t.Fatalf("tick %v", got)
	}
	if got := DefaultConfig(2).CreditsPerTimeslice(); got != 300 {
		t.Fatalf("credits per slice %d", got)
	}
	for _, tt := range []struct {
		name  string
		edit  func(*Config)
		field string
	}{
		{"zero pcpus", func(c *Config) { c.PCPUs = 0 }, "Config.PCPUs"},
		{"negative pcpus", func(c *Config) { c.PCPUs = -3 }, "Config.PCPUs"},
		{"huge pcpus", func(c *Config) { c.PCPUs = 1 << 40 }, "Config.PCPUs"},
		{"zero slice", func(c *Config) { c.Timeslice = 0 }, "Config.Timeslice"},
		{"fractional ms slice", func(c *Config) { c.Timeslice = 1500 * time.Microsecond }, "Config.Timeslice"},
		{"2 s slice", func(c *Config) { c.Timeslice = 2 * time.Second }, "Config.Timeslice"},
		{"zero ticks", func(c *Config) { c.TicksPerTimeslice = 0 }, "Config.TicksPerTimeslice"},
		{"credits 0", func(c *Config) { c.CreditsPerMsec = 0 }, "Config.CreditsPerMsec"},
		{"credits 7", func(c *Config) { c.CreditsPerMsec = 7 }, "Config.CreditsPerMsec"},
		{"ratelimit 50us", func(c *Config) { c.Ratelimit = 50 * time.Microsecond }, "Config.Ratelimit"},
		{"ratelimit negative", func(c *Config) { c.Ratelimit = -time.Millisecond }, "Config.Ratelimit"},
		{"ratelimit above slice", func(c *Config) { c.Ratelimit = 40 * time.Millisecond }, "Config.Ratelimit"},
		{"guard e without p", func(c *Config) { c.GuardExec = time.Millisecond }, "Config.GuardExec"},
		{"guard e > p", func(c *Config) { c.GuardPeriod, c.GuardExec = time.Second, 2*time.Second }, "Config.GuardExec"},
		{"guard e zero", func(c *Config) { c.GuardPeriod = time.Second }, "Config.GuardExec"},
		{"guard p negative", func(c *Config) { c.GuardPeriod, c.GuardExec = -time.Second, time.Millisecond }, "Config.GuardPeriod"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := DefaultConfig(2)
			tt.edit(&c)
			err := c.Validate()
			var ve *ValueError
			if !errors.Is(err, ErrBadInput) || !errors.As(err, &ve) || !strings.Contains(err.Error(), tt.field) {
				t.Fatalf("err %v, want a ValueError naming %s", err, tt.field)
			}
			if _, err := New(c, []Domain{{Weight: 1, PCPUs: []int{0}}}); !errors.Is(err, ErrBadInput) {
				t.Fatalf("New accepted it: %v", err)
			}
		})
	}
}

func TestNewBadDomains(t *testing.T) {
	for _, tt := range []struct {
		name  string
		doms  []Domain
		field string
	}{
		{"nil", nil, "Domains"},
		{"weight 0", []Domain{{PCPUs: []int{0}}}, "Domains[0].Weight"},
		{"weight huge", []Domain{{Weight: 70000, PCPUs: []int{0}}}, "Domains[0].Weight"},
		{"negative cap", []Domain{{Weight: 1, Cap: -1, PCPUs: []int{0}}}, "Domains[0].Cap"},
		{"cap above pcpus", []Domain{{Weight: 1, Cap: 201, PCPUs: []int{0}}}, "Domains[0].Cap"},
		{"capped background", []Domain{{Background: true, Cap: 50, PCPUs: []int{0}}}, "Domains[0].Cap"},
		{"no vcpus", []Domain{{Weight: 1}}, "Domains[0].PCPUs"},
		{"bad pcpu", []Domain{{Weight: 1, PCPUs: []int{0}}, {Weight: 1, PCPUs: []int{0, 2}}}, "Domains[1].PCPUs[1]"},
		{"negative pcpu", []Domain{{Weight: 1, PCPUs: []int{-1}}}, "Domains[0].PCPUs[0]"},
		{"too many vcpus", []Domain{{Weight: 1, PCPUs: make([]int, MaxVCPUs+1)}}, "Domains[0].PCPUs"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(DefaultConfig(2), tt.doms)
			if !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), tt.field) {
				t.Fatalf("err %v, want one naming %s", err, tt.field)
			}
		})
	}
}

// Bad events return a ValueError naming the field and leave the state as it was.
func TestBadEvents(t *testing.T) {
	base := mustNew(t, DefaultConfig(2), Domain{Weight: 256, PCPUs: []int{0, 1}})
	run(t, &base, ev{evWake, ms(5), 0})
	for _, tt := range []struct {
		name  string
		e     ev
		field string
	}{
		{"time backwards", ev{evTick, ms(4), 0}, "now"},
		{"negative time", ev{evAccount, -1, 0}, "now"},
		{"time beyond MaxTime", ev{evAccount, MaxTime + 1, 0}, "now"},
		{"wake unknown", ev{evWake, ms(6), 2}, "vcpu"},
		{"wake negative", ev{evWake, ms(6), -1}, "vcpu"},
		{"wake running", ev{evWake, ms(6), 0}, "vcpu"},
		{"block blocked", ev{evBlock, ms(6), 1}, "vcpu"},
		{"block unknown", ev{evBlock, ms(6), 99}, "vcpu"},
		{"tick unknown pcpu", ev{evTick, ms(6), 2}, "pcpu"},
		{"schedule negative pcpu", ev{evSchedule, ms(6), -1}, "pcpu"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := base.Clone()
			log, err := apply(&s, tt.e, nil)
			var ve *ValueError
			if !errors.As(err, &ve) || !errors.Is(err, ErrBadInput) || ve.Field != tt.field {
				t.Fatalf("err %v, want ValueError on %s", err, tt.field)
			}
			if len(log) != 0 || !equalStates(&s, &base) {
				t.Fatal("a rejected event changed the state")
			}
		})
	}
	var zero State
	if _, err := zero.Wake(0, 0, nil); !errors.Is(err, ErrBadInput) {
		t.Fatalf("zero State: %v", err)
	}
	if _, err := zero.VCPU(0); !errors.Is(err, ErrBadInput) {
		t.Fatalf("zero State VCPU: %v", err)
	}
	if _, err := base.PCPU(7); !errors.Is(err, ErrBadInput) {
		t.Fatalf("PCPU(7): %v", err)
	}
	if _, err := base.RunQueue(-1, nil); !errors.Is(err, ErrBadInput) {
		t.Fatalf("RunQueue(-1): %v", err)
	}
}

// New and Validate never panic: any Config and Domain values either build a
// State that satisfies the invariants or give ErrBadInput.
func propNew(t *rapid.T) {
	i64 := func(name string) int64 {
		return rapid.OneOf(rapid.Int64Range(-2, 70000), rapid.Int64(), rapid.SampledFrom([]int64{0, 1, 3, 1000, int64(time.Millisecond), 30 * int64(time.Millisecond), int64(time.Second)}),
			rapid.SampledFrom([]int64{math.MinInt64, math.MaxInt64, int64(MaxTime), int64(MaxTime) + 1, int64(MinTimeslice) - 1, int64(MaxTimeslice) + 1,
				int64(MinRatelimit) - 1, int64(MaxRatelimit) + 1, MaxWeight + 1, MaxCreditsPMs + 1, 101, int64(time.Hour) + 1})).Draw(t, name)
	}
	cfg := Config{
		PCPUs:                     extremes.OrIntEdge(rapid.IntRange(-1, 9), 1, MaxPCPUs).Draw(t, "pcpus"),
		Timeslice:                 time.Duration(i64("tslice")),
		TicksPerTimeslice:         int(i64("ticks")),
		CreditsPerMsec:            int(i64("cpm")),
		Ratelimit:                 time.Duration(i64("ratelimit")),
		RatelimitRemainder:        rapid.Bool().Draw(t, "remainder"),
		RatelimitDelaysBackground: rapid.Bool().Draw(t, "rlbg"),
		GuardPeriod:               time.Duration(i64("p")),
		GuardExec:                 time.Duration(i64("e")),
		GuardRaiseToUnder:         rapid.Bool().Draw(t, "under"),
	}
	if rapid.Bool().Draw(t, "defaults") {
		cfg = DefaultConfig(int(i64("pcpus2") % 10))
	}
	doms := make([]Domain, rapid.IntRange(0, 3).Draw(t, "ndoms"))
	for i := range doms {
		doms[i] = Domain{
			Weight: int(i64("w")), Cap: int(i64("cap")), Background: rapid.Bool().Draw(t, "bg"),
			PCPUs:    rapid.SliceOfN(extremes.OrIntEdge(rapid.IntRange(-1, 10), 0, max(cfg.PCPUs-1, 0)), 0, 3).Draw(t, "pins"),
			Affinity: rapid.SliceOfN(extremes.OrIntEdge(rapid.IntRange(-1, 10), 0, max(cfg.PCPUs-1, 0)), 0, 3).Draw(t, "affinity"),
		}
	}
	// The derived constants never go negative; on a valid Config they are
	// the tick period and the credits per timeslice.
	tick, credits := cfg.TickPeriod(), cfg.CreditsPerTimeslice()
	if tick < 0 || credits < 0 {
		t.Fatalf("TickPeriod %v, CreditsPerTimeslice %d", tick, credits)
	}
	if cfg.Validate() == nil && (tick <= 0 || tick > cfg.Timeslice || credits != cfg.CreditsPerMsec*int(cfg.Timeslice/time.Millisecond)) {
		t.Fatalf("valid config %+v: TickPeriod %v, CreditsPerTimeslice %d", cfg, tick, credits)
	}
	s, err := New(cfg, doms)
	if err != nil {
		if !errors.Is(err, ErrBadInput) {
			t.Fatalf("error %v does not match ErrBadInput", err)
		}
		return
	}
	if cfg.Validate() != nil {
		t.Fatal("New accepted an invalid Config")
	}
	if _, err := s.Account(cfg.Timeslice, nil); err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, &s)
	// Accessors: an error exactly when the index is out of range.
	id := int(i64("id"))
	if _, err := s.VCPU(id); (err != nil) != (id < 0 || id >= s.NumVCPUs()) || (err != nil && !errors.Is(err, ErrBadInput)) {
		t.Fatalf("VCPU(%d): %v", id, err)
	}
	if _, err := s.PCPU(id); (err != nil) != (id < 0 || id >= s.NumPCPUs()) || (err != nil && !errors.Is(err, ErrBadInput)) {
		t.Fatalf("PCPU(%d): %v", id, err)
	}
	if _, err := s.RunQueue(id, nil); (err != nil) != (id < 0 || id >= s.NumPCPUs()) {
		t.Fatalf("RunQueue(%d): %v", id, err)
	}
}

func TestPropNew(t *testing.T) { rapid.Check(t, propNew) }
func FuzzNew(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propNew)) }

// The derived constants of an invalid Config are 0, never garbage from an
// overflow or a negative product.
func TestDerivedConstantsBadConfig(t *testing.T) {
	for _, tt := range []struct {
		name    string
		c       Config
		tick    time.Duration
		credits int
	}{
		{"zero", Config{}, 0, 0},
		{"huge credits per ms", Config{Timeslice: 30 * time.Millisecond, TicksPerTimeslice: 3, CreditsPerMsec: 1 << 40}, 10 * time.Millisecond, 0},
		{"negative slice", Config{Timeslice: -1 << 62, TicksPerTimeslice: 3, CreditsPerMsec: 10}, 0, 0},
		{"huge slice", Config{Timeslice: 1 << 62, TicksPerTimeslice: 3, CreditsPerMsec: 10}, 1 << 62 / 3, 0},
		{"negative credits", Config{Timeslice: 30 * time.Millisecond, TicksPerTimeslice: 3, CreditsPerMsec: -10}, 10 * time.Millisecond, 0},
		{"negative ticks", Config{Timeslice: 30 * time.Millisecond, TicksPerTimeslice: -3, CreditsPerMsec: 10}, 0, 300},
		{"short slice: one tick", Config{Timeslice: 2 * time.Millisecond, TicksPerTimeslice: 3, CreditsPerMsec: 10}, 2 * time.Millisecond, 20},
	} {
		if got := tt.c.TickPeriod(); got != tt.tick {
			t.Errorf("%s: TickPeriod %v, want %v", tt.name, got, tt.tick)
		}
		if got := tt.c.CreditsPerTimeslice(); got != tt.credits {
			t.Errorf("%s: CreditsPerTimeslice %d, want %d", tt.name, got, tt.credits)
		}
	}
}
