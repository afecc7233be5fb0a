// Package crosscheck holds the tests that run two adapters on one Job: the
// Kueue AdmissionCheck controller (adapters/kueue) and the kube-scheduler
// plugins (adapters/kubesched) read the same annotations under one contract
// (adapters/internal/annotation), and a Job the check admits is never held
// by the scheduler's DeadlineAdmission gate on the same inputs. It is a
// module of its own so that neither adapter's module depends on the other.
package crosscheck
