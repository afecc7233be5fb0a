#!/usr/bin/env bash
# Starts a batch cluster on this machine from real components: etcd,
# kube-apiserver, kube-controller-manager (job, garbage-collector, namespace,
# service-account, disruption and pod-GC controllers), the stock
# kube-scheduler, the Kueue manager, and schedkit's schedkit-deadline and
# schedkit-scheduler installed from their manifests (kubectl apply -k) and
# run as the ServiceAccounts those create. Nodes and the run time of pods
# are simulated by kwok. Run bash adapters/cluster/up.sh -h for the flags;
# adapters/cluster/down.sh stops it.
set -eEuo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)

usage() {
	cat <<EOF
Usage: bash adapters/cluster/up.sh [flags]

Starts a simulated batch cluster: real etcd, kube-apiserver,
kube-controller-manager, kube-scheduler, Kueue, schedkit-deadline and
schedkit-scheduler; kwok plays the nodes and the pods' run times. Builds
what the cache lacks first (cold: about 20 minutes on two cores). Prints
how to use it when it is up; bash adapters/cluster/down.sh stops it.

Flags:
  -dir DIR          state directory: certificates, kubeconfigs, etcd's data,
                    logs (default \$SCHEDKIT_CLUSTER_DIR, else
                    /tmp/schedkit-cluster)
  -port-base N      the cluster listens on 127.0.0.1, ports N to N+11
                    (default \$SCHEDKIT_CLUSTER_PORT_BASE, else 27100)
  -nodes SPEC       a group of kwok nodes, COUNTxTYPE:RESOURCES, e.g.
                    4xcpu-standard:cpu=8,memory=32Gi or
                    2xgpu-a100:cpu=8,memory=64Gi,nvidia.com/gpu=4;
                    repeat for more groups. TYPE becomes the label
                    node.kubernetes.io/instance-type, which ProgressShare
                    reads; the nodes are TYPE-1 … TYPE-COUNT. "none": no
                    nodes. Default: 2xcpu-standard:cpu=4,memory=16Gi and
                    2xgpu-a100:cpu=4,memory=16Gi,nvidia.com/gpu=1
  -without LIST     leave components out, comma-separated: kueue (and with
                    it schedkit-deadline and the playground queue),
                    schedkit-deadline, schedkit-scheduler, kube-scheduler
  -deadline-flags F extra flags for schedkit-deadline after its
                    Deployment's, e.g. "-confidence=0.95 -max-retry=1m"
  -scheduler-flags F extra flags for schedkit-scheduler after its
                    Deployment's, e.g. "--v=4"
  -no-queue         do not create the playground queue (DeadlineParameters,
                    AdmissionCheck, ClusterQueue batch, LocalQueue
                    team-a/batch)
  -kueue-flags F    extra flags for the Kueue manager, e.g. "--zap-log-level=3"
                    (its reconcilers' log lines, with their times)
  -kueue-gates G    Kueue feature gates to turn on or off besides
                    VisibilityOnDemand=false, e.g. "PriorityBoost=true"
                    (what schedkit-deadline -edf-priority-boost needs)
  -audit            write kube-apiserver's audit log to logs/audit.log
                    (JSON lines): every write to Workloads, with its
                    request body, and to Jobs and pods, with who wrote,
                    when, and the response code (409: a conflict)
  -build-only       build the components into the cache and stop
  -h                this help

Environment: SCHEDKIT_E2E_CACHE is the build cache (default
\$HOME/.cache/schedkit-e2e).

Needs Go, openssl and curl. Kueue's manager reads its metrics certificate
from /etc/kueue/metrics/certs, which up.sh fills when it may write there;
else run once: sudo mkdir -p /etc/kueue/metrics/certs &&
sudo chown \$USER /etc/kueue/metrics/certs
EOF
}

dir=${SCHEDKIT_CLUSTER_DIR:-/tmp/schedkit-cluster}
base=${SCHEDKIT_CLUSTER_PORT_BASE:-27100}
nodes=()
without=,
queue=1
build_only=0
audit=0
kueue_flags=
kueue_gates=
deadline_flags=
scheduler_flags=
while [ $# -gt 0 ]; do
	case $1 in
	-dir) dir=$2 && shift ;;
	-port-base) base=$2 && shift ;;
	-nodes) nodes+=("$2") && shift ;;
	-without) without=,$2, && shift ;;
	-deadline-flags) deadline_flags=$2 && shift ;;
	-scheduler-flags) scheduler_flags=$2 && shift ;;
	-no-queue) queue=0 ;;
	-build-only) build_only=1 ;;
	-audit) audit=1 ;;
	-kueue-flags) kueue_flags=$2 && shift ;;
	-kueue-gates) kueue_gates=,$2 && shift ;;
	-h | -help | --help)
		usage
		exit 0
		;;
	*)
		echo "up.sh: unknown flag $1 (-h lists them)" >&2
		exit 2
		;;
	esac
	shift
done
[ ${#nodes[@]} -gt 0 ] || nodes=("2xcpu-standard:cpu=4,memory=16Gi" "2xgpu-a100:cpu=4,memory=16Gi,nvidia.com/gpu=1")
case $base in
'' | *[!0-9]*)
	echo "up.sh: -port-base $base: not a port number" >&2
	exit 2
	;;
esac
if [ "$base" -lt 1024 ] || [ "$base" -gt 65000 ]; then
	echo "up.sh: -port-base $base: must be in [1024, 65000]" >&2
	exit 2
fi
with() { case $without in *,$1,*) return 1 ;; *) return 0 ;; esac }
with kueue || without=$without,schedkit-deadline,

# shellcheck source=components.sh
. "$here/components.sh"
want=(etcd kube-apiserver kube-controller-manager kubectl kwok)
with kube-scheduler && want+=(kube-scheduler)
with kueue && want+=(kueue)
components_build "${want[@]}"
[ $build_only = 1 ] && exit 0

if [ -e "$dir/pids" ]; then
	echo "up.sh: $dir holds a cluster already; stop it with bash adapters/cluster/down.sh -dir $dir" >&2
	exit 1
fi
# A stopped cluster's directory (down.sh -keep) is started afresh; any
# other directory must be empty or absent.
if [ -f "$dir/.schedkit-cluster" ]; then
	rm -rf "$dir"
elif [ -d "$dir" ] && [ -n "$(ls -A "$dir")" ]; then
	echo "up.sh: $dir is not empty and holds no stopped cluster; choose another -dir" >&2
	exit 1
fi
mkdir -p "$dir"/{bin,logs,pids,pki,etcd,mounts}
touch "$dir/.schedkit-cluster"
dir=$(cd "$dir" && pwd)
for c in kubectl kube-apiserver kube-controller-manager kube-scheduler etcd kwok kueue; do
	p=$(components_path $c)
	[ -x "$p" ] && ln -sf "$p" "$dir/bin/$c"
done
export PATH=$dir/bin:$PATH

p_api=$base p_etcd=$((base + 1)) p_peer=$((base + 2)) p_kcm=$((base + 3)) p_sched=$((base + 4))
p_kwok=$((base + 5)) p_kwh=$((base + 6)) p_kmetrics=$((base + 7)) p_khealth=$((base + 8))
p_dmetrics=$((base + 9)) p_dhealth=$((base + 10)) p_ssched=$((base + 11))
for p in $(seq "$base" $((base + 11))); do
	if (exec 3<>/dev/tcp/127.0.0.1/"$p") 2>/dev/null; then
		echo "up.sh: port $p is in use; choose other ports with -port-base" >&2
		rm -rf "$dir"
		exit 1
	fi
done
echo "$base" >"$dir/port-base"

# If anything below fails, stop what was started.
trap 'echo "up.sh: failed; logs in $dir/logs; stopping" >&2; bash "$here/down.sh" -dir "$dir" -keep >&2' ERR
trap 'echo "up.sh: interrupted; logs in $dir/logs; stopping" >&2; bash "$here/down.sh" -dir "$dir" -keep >&2; exit 130' INT TERM

# ---- certificates: one CA for every server and client ----
pki=$dir/pki
ssl() { openssl "$@" 2>/dev/null; }
ssl ecparam -name prime256v1 -genkey -noout -out "$pki/ca.key"
ssl req -x509 -new -key "$pki/ca.key" -subj /CN=schedkit-cluster-ca -days 3650 -out "$pki/ca.crt"
# cert NAME SUBJECT EXTENSIONS: a key and a certificate signed by the CA.
cert() {
	ssl ecparam -name prime256v1 -genkey -noout -out "$pki/$1.key"
	ssl req -new -key "$pki/$1.key" -subj "$2" -out "$pki/$1.csr"
	printf '%s\n' "$3" >"$pki/$1.ext"
	ssl x509 -req -in "$pki/$1.csr" -CA "$pki/ca.crt" -CAkey "$pki/ca.key" -CAcreateserial \
		-days 3650 -extfile "$pki/$1.ext" -out "$pki/$1.crt"
}
server='extendedKeyUsage=serverAuth
subjectAltName=IP:127.0.0.1,DNS:localhost'
cert apiserver /CN=kube-apiserver "$server,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc"
cert admin "/O=system:masters/CN=schedkit-cluster-admin" 'extendedKeyUsage=clientAuth'
cert kueue-webhook /CN=kueue-webhook "$server"
ssl genrsa -out "$pki/sa.key" 2048
ssl rsa -in "$pki/sa.key" -pubout -out "$pki/sa.pub"

# kubeconfig FILE USER-FLAGS...: a kubeconfig for this cluster.
kubeconfig() {
	local f=$1
	shift
	kubectl config --kubeconfig="$f" set-cluster schedkit --server="https://127.0.0.1:$p_api" \
		--certificate-authority="$pki/ca.crt" --embed-certs >/dev/null
	kubectl config --kubeconfig="$f" set-credentials user "$@" >/dev/null
	kubectl config --kubeconfig="$f" set-context schedkit --cluster=schedkit --user=user >/dev/null
	kubectl config --kubeconfig="$f" use-context schedkit >/dev/null
}
admin=$dir/kubeconfig
kubeconfig "$admin" --client-certificate="$pki/admin.crt" --client-key="$pki/admin.key" --embed-certs
export KUBECONFIG=$admin

# ---- processes ----
# start NAME COMMAND...: runs COMMAND in its own session, logging to
# logs/NAME.log; down.sh stops it by the pid in pids/NAME.
start() {
	local name=$1
	shift
	setsid "$@" >"$dir/logs/$name.log" 2>&1 </dev/null &
	echo $! >"$dir/pids/$name"
}
# wait_for WHAT SECONDS NAME COMMAND...: polls COMMAND until it succeeds;
# fails when process NAME has exited or the time is up.
wait_for() {
	local what=$1 limit=$2 name=$3
	shift 3
	local t0=$SECONDS
	until "$@" >/dev/null 2>&1; do
		if ! kill -0 "$(cat "$dir/pids/$name")" 2>/dev/null; then
			echo "up.sh: $name exited while waiting for $what; the end of logs/$name.log:" >&2
			tail -n 20 "$dir/logs/$name.log" >&2
			return 1
		fi
		if [ $((SECONDS - t0)) -ge "$limit" ]; then
			echo "up.sh: no $what after $limit s; the end of logs/$name.log:" >&2
			tail -n 20 "$dir/logs/$name.log" >&2
			return 1
		fi
		sleep 0.2
	done
	echo "== $what ($((SECONDS - t0)) s)"
}
t_start=$SECONDS

start etcd etcd --name=schedkit --data-dir="$dir/etcd" \
	--listen-client-urls="http://127.0.0.1:$p_etcd" --advertise-client-urls="http://127.0.0.1:$p_etcd" \
	--listen-peer-urls="http://127.0.0.1:$p_peer" --initial-advertise-peer-urls="http://127.0.0.1:$p_peer" \
	--initial-cluster="schedkit=http://127.0.0.1:$p_peer" --unsafe-no-fsync --quota-backend-bytes=4294967296
wait_for "etcd healthy" 30 etcd curl -fsS "http://127.0.0.1:$p_etcd/health"

# A loopback advertise address needs --endpoint-reconciler-type=none.
# TaintNodesByCondition would taint every new node not-ready, and no node
# lifecycle controller runs here to lift it.
audit_flags=()
if [ $audit = 1 ]; then
	# Writes only: Workloads with the request body (which field each
	# write sets), Jobs and pods with their metadata.
	cat >"$dir/audit-policy.yaml" <<EOF
apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
- level: None
  verbs: [get, list, watch]
- level: Request
  resources: [{group: kueue.x-k8s.io, resources: [workloads, workloads/status]}]
- level: Metadata
  resources: [{group: batch, resources: [jobs, jobs/status]}, {group: "", resources: [pods, pods/binding, pods/status]}]
- level: None
EOF
	audit_flags=(--audit-policy-file="$dir/audit-policy.yaml" --audit-log-path="$dir/logs/audit.log" --audit-log-format=json --audit-log-mode=blocking)
fi
start kube-apiserver kube-apiserver --etcd-servers="http://127.0.0.1:$p_etcd" \
	--bind-address=127.0.0.1 --secure-port="$p_api" --advertise-address=127.0.0.1 \
	--endpoint-reconciler-type=none --service-cluster-ip-range=10.96.0.0/16 \
	--tls-cert-file="$pki/apiserver.crt" --tls-private-key-file="$pki/apiserver.key" \
	--client-ca-file="$pki/ca.crt" --authorization-mode=RBAC \
	--service-account-issuer=https://kubernetes.default.svc --service-account-key-file="$pki/sa.pub" \
	--service-account-signing-key-file="$pki/sa.key" \
	--disable-admission-plugins=TaintNodesByCondition "${audit_flags[@]}"
wait_for "kube-apiserver ready" 60 kube-apiserver kubectl get --raw /readyz

start kube-controller-manager kube-controller-manager --kubeconfig="$admin" \
	--authentication-kubeconfig="$admin" --authorization-kubeconfig="$admin" \
	--bind-address=127.0.0.1 --secure-port="$p_kcm" --leader-elect=false \
	--controllers=job-controller,garbage-collector-controller,namespace-controller,serviceaccount-controller,root-ca-certificate-publisher-controller,disruption-controller,pod-garbage-collector-controller,ttl-after-finished-controller \
	--root-ca-file="$pki/ca.crt" --use-service-account-credentials=false
if with kube-scheduler; then
	start kube-scheduler kube-scheduler --kubeconfig="$admin" \
		--authentication-kubeconfig="$admin" --authorization-kubeconfig="$admin" \
		--bind-address=127.0.0.1 --secure-port="$p_sched" --leader-elect=false
fi
start kwok kwok --kubeconfig="$admin" --config="$here/kwok/stages.yaml" \
	--manage-all-nodes=false --manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake \
	--cidr=10.244.0.1/16 --node-ip=10.0.0.1 --server-address="127.0.0.1:$p_kwok"
wait_for "kube-controller-manager healthy" 60 kube-controller-manager curl -fsSk "https://127.0.0.1:$p_kcm/healthz"
# The ServiceAccount admission plugin refuses pods until the namespace's
# default ServiceAccount exists.
wait_for "the default ServiceAccount" 30 kube-controller-manager kubectl get serviceaccount default

# ---- nodes ----
totals=$dir/node-totals
: >"$totals"
for spec in "${nodes[@]}"; do
	[ "$spec" = none ] && continue
	count=${spec%%x*} rest=${spec#*x}
	type=${rest%%:*} res=${rest#*:}
	case $count in '' | *[!0-9]*)
		echo "up.sh: -nodes $spec: want COUNTxTYPE:RESOURCES, e.g. 4xcpu-standard:cpu=8,memory=32Gi" >&2
		false
		;;
	esac
	[ "$res" != "$rest" ] || res=
	for i in $(seq 1 "$count"); do
		{
			cat <<EOF
apiVersion: v1
kind: Node
metadata:
  name: $type-$i
  annotations:
    kwok.x-k8s.io/node: fake
  labels:
    kubernetes.io/hostname: $type-$i
    kubernetes.io/os: linux
    kubernetes.io/arch: amd64
    node.kubernetes.io/instance-type: $type
    type: kwok
status:
EOF
			for field in allocatable capacity; do
				echo "  $field:"
				echo "    pods: \"110\""
				IFS=, read -ra kv <<<"$res"
				for r in "${kv[@]}"; do
					[ -n "$r" ] && echo "    ${r%%=*}: \"${r#*=}\""
					[ $field = capacity ] && [ -n "$r" ] && [ "$i" = 1 ] && echo "$count ${r%%=*} ${r#*=}" >>"$totals"
				done
			done
			echo ---
		} >>"$dir/nodes.yaml"
	done
done
if [ -s "$dir/nodes.yaml" ]; then
	kubectl apply -f "$dir/nodes.yaml" >/dev/null
	n=$(grep -c '^kind: Node' "$dir/nodes.yaml")
	wait_for "$n kwok nodes Ready" 60 kwok sh -c "[ \"\$(kubectl get nodes -l type=kwok -o jsonpath='{range .items[*]}{.status.conditions[?(@.type==\"Ready\")].status}{\"\\n\"}{end}' | grep -c True)\" = $n ]"
fi

# run_deployment NAMESPACE NAME BINARY EXTRA-ARGS...: runs the Deployment's
# container as a process here, as its ServiceAccount (a token from the
# TokenRequest API in its kubeconfig), with the Deployment's args, its
# ConfigMap volumes written under mounts/ and EXTRA-ARGS after them (local
# ports, the kubeconfig). The ServiceAccount's kubeconfig stands for the
# pod's in-cluster configuration: it is KUBECONFIG, and the kubeconfig of
# a KubeSchedulerConfiguration that names none.
run_deployment() {
	local ns=$1 name=$2 bin=$3
	shift 3
	local sa kc mounts args=() line path cm key f
	sa=$(kubectl get deployment -n "$ns" "$name" -o jsonpath='{.spec.template.spec.serviceAccountName}')
	kc=$dir/$name.kubeconfig
	kubeconfig "$kc" --token="$(kubectl create token "$sa" -n "$ns" --duration=8760h)"
	# "mountPath configMapName" for each ConfigMap volume of the container.
	mounts=$(kubectl get deployment -n "$ns" "$name" -o go-template='{{$c := index .spec.template.spec.containers 0}}{{range .spec.template.spec.volumes}}{{if .configMap}}{{$v := .}}{{range $c.volumeMounts}}{{if eq .name $v.name}}{{.mountPath}} {{$v.configMap.name}}{{"\n"}}{{end}}{{end}}{{end}}{{end}}')
	while IFS= read -r line; do
		args+=("$line")
	done < <(kubectl get deployment -n "$ns" "$name" -o go-template='{{range (index .spec.template.spec.containers 0).args}}{{.}}{{"\n"}}{{end}}')
	while read -r path cm; do
		[ -n "$path" ] || continue
		mkdir -p "$dir/mounts$path"
		for key in $(kubectl get configmap -n "$ns" "$cm" -o go-template='{{range $k, $v := .data}}{{$k}}{{"\n"}}{{end}}'); do
			f=$dir/mounts$path/$key
			kubectl get configmap -n "$ns" "$cm" -o go-template="{{index .data \"$key\"}}" >"$f"
			# A KubeSchedulerConfiguration's empty clientConnection.kubeconfig
			# means the in-cluster configuration; here that is the
			# ServiceAccount's kubeconfig.
			if grep -q '^kind: KubeSchedulerConfiguration' "$f" && ! grep -q '^clientConnection:' "$f"; then
				printf 'clientConnection:\n  kubeconfig: %s\n' "$kc" >>"$f"
			fi
		done
		args=("${args[@]//$path/$dir/mounts$path}")
	done <<<"$mounts"
	start "$name" env KUBECONFIG="$kc" "$bin" "${args[@]}" "$@"
}

# ---- Kueue ----
if with kueue; then
	kubectl apply --server-side -f "$KUEUE_BIN/crd" >/dev/null
	kubectl wait --for=condition=Established --timeout=60s -f "$KUEUE_BIN/crd" >/dev/null
	# The manager exits at start-up if the Workload kind is not yet served.
	wait_for "Kueue's API in discovery" 30 kube-apiserver sh -c 'kubectl api-resources --api-group=kueue.x-k8s.io | grep -q "^workloads "'
	kubectl create namespace kueue-system >/dev/null
	mkdir -p "$dir/kueue/certs"
	cp "$pki/kueue-webhook.crt" "$dir/kueue/certs/tls.crt"
	cp "$pki/kueue-webhook.key" "$dir/kueue/certs/tls.key"
	# With its own certificate management off, the manager serves metrics
	# with the certificate it finds at this fixed path.
	mcerts=/etc/kueue/metrics/certs
	if [ ! -f "$mcerts/tls.crt" ]; then
		if ! mkdir -p "$mcerts" 2>/dev/null || ! cp "$pki/kueue-webhook.crt" "$mcerts/tls.crt" 2>/dev/null ||
			! cp "$pki/kueue-webhook.key" "$mcerts/tls.key" 2>/dev/null; then
			echo "up.sh: Kueue's manager reads its metrics certificate from $mcerts, which this user cannot create:" >&2
			echo "  sudo mkdir -p $mcerts && sudo chown $(id -u) $mcerts   (once), or -without kueue" >&2
			false
		fi
	fi
	cat >"$dir/kueue/config.yaml" <<EOF
apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
namespace: kueue-system
health:
  healthProbeBindAddress: 127.0.0.1:$p_khealth
metrics:
  bindAddress: 127.0.0.1:$p_kmetrics
webhook:
  host: 127.0.0.1
  port: $p_kwh
  certDir: $dir/kueue/certs
leaderElection:
  leaderElect: false
internalCertManagement:
  enable: false
controller:
  groupKindConcurrency:
    Job.batch: 5
    Pod: 5
    Workload.kueue.x-k8s.io: 10
    LocalQueue.kueue.x-k8s.io: 5
    Cohort.kueue.x-k8s.io: 1
    ClusterQueue.kueue.x-k8s.io: 5
    ResourceFlavor.kueue.x-k8s.io: 1
clientConnection:
  qps: 300
  burst: 500
integrations:
  frameworks:
  - batch/job
EOF
	start kueue env KUBECONFIG="$admin" kueue --config="$dir/kueue/config.yaml" \
		--feature-gates=VisibilityOnDemand=false$kueue_gates $kueue_flags
	wait_for "Kueue's manager ready" 90 kueue curl -fsS "http://127.0.0.1:$p_khealth/readyz"
	kubectl kustomize "$KUEUE_BIN/webhook" |
		awk -v port="$p_kwh" -v cabundle="$(base64 <"$pki/ca.crt" | tr -d '\n')" -f "$here/kueue/webhooks.awk" >"$dir/kueue/webhooks.yaml"
	kubectl apply -f "$dir/kueue/webhooks.yaml" >/dev/null
fi

# ---- schedkit, installed as users install it ----
if with schedkit-deadline; then
	components_build_tree schedkit-deadline "$dir/bin/schedkit-deadline"
	kubectl apply -k "$repo/adapters/kueue/config/default" >/dev/null
	kubectl wait --for=condition=Established --timeout=60s crd/deadlineparameters.schedkit.io >/dev/null
	run_deployment kueue-system schedkit-deadline "$dir/bin/schedkit-deadline" \
		-metrics-bind-address="127.0.0.1:$p_dmetrics" -health-probe-bind-address="127.0.0.1:$p_dhealth" \
		-leader-election-namespace=kueue-system $deadline_flags
	wait_for "schedkit-deadline ready" 60 schedkit-deadline curl -fsS "http://127.0.0.1:$p_dhealth/readyz"
fi
if with schedkit-scheduler; then
	components_build_tree schedkit-scheduler "$dir/bin/schedkit-scheduler"
	kubectl apply -k "$repo/adapters/kubesched/config/default" >/dev/null
	kc=$dir/schedkit-scheduler.kubeconfig
	run_deployment schedkit-scheduler schedkit-scheduler "$dir/bin/schedkit-scheduler" \
		--authentication-kubeconfig="$kc" --authorization-kubeconfig="$kc" \
		--bind-address=127.0.0.1 --secure-port="$p_ssched" $scheduler_flags
	wait_for "schedkit-scheduler ready" 60 schedkit-scheduler curl -fsSk "https://127.0.0.1:$p_ssched/readyz"
fi

# ---- the playground's queue ----
if with kueue && [ $queue = 1 ]; then
	# quota RESOURCE: the nodes' total of RESOURCE, empty when none.
	quota() {
		awk -v r="$1" '
			function num(q,   n, u) {
				n = q + 0; u = q; sub(/^[0-9.]+/, "", u)
				if (r == "cpu") return u == "m" ? n : n * 1000
				if (r == "memory") {
					if (u == "Ki") return n / 1024
					if (u == "Mi") return n
					if (u == "Gi") return n * 1024
					if (u == "Ti") return n * 1048576
					return n / 1048576
				}
				return n
			}
			$2 == r { s += $1 * num($3) }
			END {
				if (s <= 0) exit
				if (r == "cpu") { if (s % 1000) printf "%dm\n", s; else printf "%d\n", s / 1000 }
				else if (r == "memory") { if (s % 1024) printf "%dMi\n", s; else printf "%dGi\n", s / 1024 }
				else printf "%d\n", s
			}' "$totals"
	}
	cpu=$(quota cpu) mem=$(quota memory) gpu=$(quota nvidia.com/gpu)
	if [ -z "$cpu" ]; then
		echo "up.sh: the nodes have no cpu, so the playground queue would have no quota (-no-queue skips it)" >&2
		false
	fi
	{
		cat "$here/playground/queue.yaml"
		cat <<EOF
---
# The ClusterQueue's nominal quota is the nodes' capacity, on which the
# deadline check plans.
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata:
  name: batch
spec:
  namespaceSelector: {}
  resourceGroups:
  - coveredResources: ["cpu", "memory"$([ -n "$gpu" ] && echo ', "nvidia.com/gpu"')]
    flavors:
    - name: default-flavor
      resources:
      - name: cpu
        nominalQuota: $cpu
      - name: memory
        nominalQuota: ${mem:-0}
$([ -n "$gpu" ] && printf '      - name: nvidia.com/gpu\n        nominalQuota: %s\n' "$gpu")
  admissionChecksStrategy:
    admissionChecks:
    - name: deadline
EOF
	} >"$dir/queue.yaml"
	kubectl apply -f "$dir/queue.yaml" >/dev/null
	wait_for "ClusterQueue batch active" 60 kueue kubectl wait --for=condition=Active --timeout=1s clusterqueue/batch
fi

trap - ERR INT TERM
echo "== up in $((SECONDS - t_start)) s"
cat <<EOF

The cluster is up (state and logs in $dir). Use it with:

  export KUBECONFIG=$dir/kubeconfig PATH=$dir/bin:\$PATH

Stop it with: bash adapters/cluster/down.sh$([ "$dir" = /tmp/schedkit-cluster ] || echo " -dir $dir")
EOF
