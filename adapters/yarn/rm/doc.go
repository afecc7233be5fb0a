// Package rm is a client for the Hadoop YARN ResourceManager REST API
// (/ws/v1/cluster, Hadoop's ResourceManagerRest.md): the reads a
// scheduler adapter needs (apps filtered by state, one app, nodes, cluster
// metrics, the scheduler type and its queue tree), the writes it acts with
// (application priority, kill with a diagnostic, LIFETIME timeout, queue
// move, a node's resource) and the ReservationSystem (new-reservation,
// submit, update, delete, list).
//
// # Behaviour
//
//   - Every call takes a context. Cancelling it abandons the request and
//     any wait for a retry at once.
//   - Each attempt is bounded by Config.Timeout, from connecting to the
//     last byte of the answer, so a server that accepts the connection and
//     then stalls is cut off.
//   - A 5xx answer, a transport error or an attempt timeout is retried up
//     to Config.MaxAttempts attempts in all, waiting Config.Backoff before
//     the first retry and doubling up to Config.MaxBackoff. 4xx answers are
//     final. Every write the client makes is idempotent on the RM (setting
//     a priority, queue or timeout to a value; killing an app that is
//     already killed answers 200; resubmitting a reservation with the same
//     ID and definition is accepted) except reservation/new-reservation,
//     whose retry at worst leaves an unused reservation ID behind.
//   - A non-2xx answer is an *Error carrying the status and the RM's
//     RemoteException (exception, message, javaClassName) or, for the
//     endpoints that answer plain text, the text. A 404 matches
//     ErrNotFound.
//   - The RM's JSON is inconsistent between endpoints and versions (see
//     Int64, Float, Bool, String and List): numbers arrive quoted, a
//     one-element collection arrives as a bare object, an empty one as null,
//     and the application priority under two names. All of these decode;
//     anything else is an error naming the endpoint, never a zero value
//     passed off as data.
//
// # What it is checked against
//
// The tests of this package are contract tests: the same test code runs
// against package rmtest, the test double, and — in the real tier
// (go test -tags e2e, with the RM that minirm/minirm.sh starts; see
// adapters/test-e2e.sh) — against Hadoop 3.5.0's own ResourceManager
// (MiniYARNCluster from hadoop-client-minicluster, Capacity Scheduler,
// ReservationSystem on) with real DistributedShell applications. Checked
// against Hadoop 3.5.0: the app list and its filters (states, tags,
// limit), one app, an unknown and a malformed app ID, nodes, metrics,
// the scheduler type and queue tree, application submission, a node's
// own resource written back (and an unknown node), priorities (the cap at
// yarn.cluster.max-application-priority, a finished app unchanged), kill
// (202 and 200 answers, the recorded diagnostics, a write without
// user.name made as dr.who), queue moves (full paths, unknown queue, the
// reservable queue itself, a finished app), LIFETIME timeouts (set, in
// the past), and every reservation endpoint (new-reservation, submit,
// resubmit, list, update, delete, delete twice, and the refusals: past
// deadline, duration longer than the window, gang above the plan's
// capacity, not a plan queue, no requests). Checked against the RM source
// only, through the double: an app not yet ACCEPTED, the Fair and FIFO
// schedulers, an RM behind an authentication filter, the
// ReservationSystem off, 5xx retries and stalls (fault injection).
package rm
