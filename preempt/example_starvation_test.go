package preempt_test

import (
	"fmt"

	"github.com/schedkit/schedkit/preempt"
)

// A preemption check every 20 s feeds the occupancy window; once the cluster
// has been busy (more than 90% of slots) for more than 80% of the last 3
// minutes and the queue exceeds n_task, the long job starves the others and
// GP kills half of its overflowing tasks first (the graduated kill).
func ExampleOccupancyWindow() {
	win, _ := preempt.NewOccupancyWindow(preempt.DefaultWindow, preempt.DefaultBusySlots)
	for t := 0.0; t <= 180; t += 20 {
		win.Add(t, 396, 400) // 99% of the slots in use
	}
	nTask, _ := preempt.NTask(20, 0.5) // L = 20 queued-or-running tasks, π = 0.5
	c := preempt.Cluster{
		Now: 180,
		Jobs: []preempt.Job{
			{Share: 1, Long: true, StarvingFor: 20}, // holds 5 slots
			{Share: 2, Queued: 12},                  // waiting
			{Share: 1, Queued: 4},                   // waiting: no single job holds > 90% of the queue
		},
		Tasks: []preempt.Task{
			{ID: 1, Job: 0, Start: 0, Slots: 1},
			{ID: 2, Job: 0, Start: 10, Slots: 1},
			{ID: 3, Job: 0, Start: 20, Slots: 1},
			{ID: 4, Job: 0, Start: 30, Slots: 1},
			{ID: 5, Job: 0, Start: 40, Slots: 1},
			{ID: 6, Job: 1, Start: 170, Slots: 1},
		},
	}
	d, _ := preempt.GP(c, 3, preempt.GPOptions{Busy: win.Busy(preempt.DefaultBusyTime), NTask: nTask, Timeout: 360})
	fmt.Printf("busy %.0f%% of the window, n_task %g, starving jobs %v\n", 100*win.BusyFraction(), nTask, d.Starving)
	for _, v := range d.Victims {
		fmt.Printf("task %d: %v, %g slot·s lost\n", v.ID, v.Reason, v.WorkLost)
	}
	// Output:
	// busy 100% of the window, n_task 10, starving jobs [0]
	// task 5: starving-long-job, 140 slot·s lost
	// task 4: starving-long-job, 150 slot·s lost
	// task 6: most-recent, 10 slot·s lost
}
