// Package e2e holds the real-tier tests of the schedkit.io/deadline check
// (build tag e2e): Kueue's own controllers (core.SetupControllers), its
// scheduler (scheduler.New) and its webhooks run in-process against a real
// kube-apiserver and etcd started by controller-runtime's envtest, beside
// the check's manager. Run them with bash adapters/test-e2e.sh, which
// builds both servers from source and sets KUBEBUILDER_ASSETS.
package e2e
