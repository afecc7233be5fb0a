// Package rm is a client for the Hadoop YARN ResourceManager REST API
// (/ws/v1/cluster, Hadoop's ResourceManagerRest.md): the reads a
// scheduler adapter needs (apps filtered by state, one app, nodes, cluster
// metrics, the scheduler type), the writes it acts with (application
// priority, kill with a diagnostic, LIFETIME timeout, queue move) and the
// ReservationSystem (new-reservation, submit, update, delete, list).
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
// There is no ResourceManager in the test environment (Hadoop is not
// packaged for it and Maven Central is out of reach), so this package is
// checked against the documented REST behaviour, not against a running
// ResourceManager: package rmtest is a stateful test double whose answers
// are shaped like the JSON examples of ResourceManagerRest.md and whose
// behaviour (status codes, error bodies, what a write to a finished app
// does) follows the RM source it cites, file and method, in its comments.
package rm
