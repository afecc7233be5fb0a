// Package tracefile reads the public cluster trace formats the adapters
// replay: the Standard Workload Format of the Parallel Workloads Archive
// (ReadSWF), the SWIM Facebook Hadoop days (ReadSWIM) and the task events
// of Google's clusterdata-2011 shards (ReadGoogle). Each reader returns
// the trace's own records, in its own units, and leaves the mapping to
// jobs of a scheduler to its caller. It makes no decision.
//
// Readers take an io.Reader (SWF and Google files plain or
// gzip-compressed), never panic, bound what they allocate, and name the
// line and field of anything they cannot use: a *LineError, matching
// ErrBadRecord.
package tracefile
