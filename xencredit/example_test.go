package xencredit_test

import (
	"fmt"
	"time"

	"github.com/schedkit/schedkit/xencredit"
)

// A batch VCPU runs on one PCPU; an interactive VCPU wakes. Under stock
// credit both are UNDER, the waker is boosted and preempts. Under MI the
// batch VCPU is BACKGROUND and is preempted even by an OVER waker.
func Example() {
	ms := time.Millisecond
	for _, background := range []bool{false, true} {
		s, err := xencredit.New(xencredit.DefaultConfig(1), []xencredit.Domain{
			{Weight: 1, Background: background, PCPUs: []int{0}}, // batch: VCPU 0
			{Weight: 256, PCPUs: []int{0}},                       // interactive: VCPU 1
		})
		if err != nil {
			fmt.Println(err)
			return
		}
		var log []xencredit.Change
		log, _ = s.Wake(0, 0, log[:0])
		log, _ = s.Tick(10*ms, 0, log)
		log, _ = s.Wake(12*ms, 1, log)
		for _, c := range log {
			fmt.Println(c)
		}
		log, _ = s.Block(14*ms, 1, log[:0])
		b, _ := s.VCPU(1)
		fmt.Printf("interactive ran %v, waited %v; %v after blocking\n\n", b.Times[xencredit.Running], b.Times[xencredit.Runnable], log)
	}
	// Output:
	// boost vcpu=0 pcpu=0 BOOST
	// dispatch vcpu=0 pcpu=0 BOOST
	// unboost vcpu=0 pcpu=0 UNDER
	// boost vcpu=1 pcpu=0 BOOST
	// preempt vcpu=0 pcpu=0 UNDER
	// dispatch vcpu=1 pcpu=0 BOOST
	// interactive ran 2ms, waited 0s; [dispatch vcpu=0 pcpu=0 UNDER] after blocking
	//
	// dispatch vcpu=0 pcpu=0 BACKGROUND
	// boost vcpu=1 pcpu=0 BOOST
	// preempt vcpu=0 pcpu=0 BACKGROUND
	// dispatch vcpu=1 pcpu=0 BOOST
	// interactive ran 2ms, waited 0s; [dispatch vcpu=0 pcpu=0 BACKGROUND] after blocking
}
