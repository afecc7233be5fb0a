#!/usr/bin/env bash
# Stops the cluster adapters/cluster/up.sh started: each of its processes by
# the pid up.sh recorded, the schedkit components and Kueue first, etcd
# last; then removes the state directory.
set -euo pipefail

usage() {
	cat <<USAGE
Usage: bash adapters/cluster/down.sh [flags]

Stops the cluster bash adapters/cluster/up.sh started and removes its state
directory (etcd's data, certificates, kubeconfigs, logs).

Flags:
  -dir DIR   the state directory given to up.sh (default
             \$SCHEDKIT_CLUSTER_DIR, else /tmp/schedkit-cluster)
  -keep      keep the state directory (the logs) after stopping
  -h         this help
USAGE
}

dir=${SCHEDKIT_CLUSTER_DIR:-/tmp/schedkit-cluster}
keep=0
while [ $# -gt 0 ]; do
	case $1 in
	-dir) dir=$2 && shift ;;
	-keep) keep=1 ;;
	-h | -help | --help)
		usage
		exit 0
		;;
	*)
		echo "down.sh: unknown flag $1 (-h lists them)" >&2
		exit 2
		;;
	esac
	shift
done
if [ ! -d "$dir/pids" ]; then
	echo "down.sh: no cluster in $dir" >&2
	exit 1
fi

# stop NAME: SIGTERM, then SIGKILL after 15 s.
stop() {
	local f=$dir/pids/$1 pid
	[ -f "$f" ] || return 0
	pid=$(cat "$f")
	if kill -TERM "$pid" 2>/dev/null; then
		for _ in $(seq 150); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
		kill -KILL "$pid" 2>/dev/null || true
	fi
	rm -f "$f"
}
for name in schedkit-scheduler schedkit-deadline kueue kwok kube-scheduler kube-controller-manager kube-apiserver etcd; do
	stop $name
done
for f in "$dir"/pids/*; do # anything else up.sh started
	[ -e "$f" ] && stop "$(basename "$f")"
done
rmdir "$dir/pids"
if [ $keep = 1 ]; then
	echo "stopped; logs in $dir/logs"
else
	rm -rf "$dir"
	echo "stopped"
fi
