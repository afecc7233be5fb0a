#!/usr/bin/env bash
# A real Hadoop YARN ResourceManager for the YARN adapter's real tier:
# Hadoop 3.5.0's MiniYARNCluster (hadoop-client-minicluster, see pom.xml)
# run as a long-lived process by MiniRM.java — one ResourceManager with its
# REST API on a fixed port, the CapacityScheduler with queues default,
# dedicated (reservable) and held (apps wait there), the ReservationSystem
# on, and N NodeManagers that launch real containers.
#
#   bash minirm.sh build   compile MiniRM, resolve its class path (Maven;
#                          artifacts cached in ~/.m2, skipped when built)
#   bash minirm.sh start   build if needed, start the cluster, wait until
#                          every NodeManager has registered, then print
#                          the environment the tests read (as env does)
#   bash minirm.sh env     print, for the running cluster, export lines
#                          for eval "$(bash minirm.sh env)":
#                            SCHEDKIT_YARN_RM=http://127.0.0.1:PORT
#                            SCHEDKIT_YARN_CLASSPATH=…  (class path of an
#                              ApplicationMaster: yarn-site.xml naming the
#                              RM, the shaded Hadoop client, DistributedShell)
#                            SCHEDKIT_YARN_JAVA_OPTS=…  (Hadoop's Java 17
#                              --add-opens list, HADOOP-19310)
#                            SCHEDKIT_YARN_JAVA=…       (the java they run)
#   bash minirm.sh stop    stop it and the containers it launched
#
# Settings: MINIRM_PORT (18088; RPC on PORT+1 … PORT+4), MINIRM_NODES (2),
# MINIRM_NODE_MB (2048), MINIRM_NODE_VCORES (8), MINIRM_HEAP (768m),
# MINIRM_DIR (state, logs and the NodeManagers' directories;
# $HOME/.cache/schedkit-minirm), MINIRM_OPTS (more MiniRM flags, such as
# "-D yarn.resourcemanager.recovery.enabled=true"; words split on blanks).
# The log is $MINIRM_DIR/minirm.log.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
port=${MINIRM_PORT:-18088}
nodes=${MINIRM_NODES:-2}
node_mb=${MINIRM_NODE_MB:-2048}
node_vcores=${MINIRM_NODE_VCORES:-8}
heap=${MINIRM_HEAP:-768m}
dir=${MINIRM_DIR:-$HOME/.cache/schedkit-minirm}
opts=${MINIRM_OPTS:-}

# Hadoop 3.5.0's JPMS options for Java 17 (hadoop-project's
# extraJavaTestArgs, HADOOP-19310); ApplicationMasters need them too.
java_opts="-XX:+IgnoreUnrecognizedVMOptions --add-opens=java.base/java.io=ALL-UNNAMED --add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.lang.reflect=ALL-UNNAMED --add-opens=java.base/java.math=ALL-UNNAMED --add-opens=java.base/java.net=ALL-UNNAMED --add-opens=java.base/java.text=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED --add-opens=java.base/java.util.concurrent=ALL-UNNAMED --add-opens=java.base/java.util.zip=ALL-UNNAMED --add-opens=java.base/sun.security.util=ALL-UNNAMED --add-opens=java.base/sun.security.x509=ALL-UNNAMED"

stamp() { cat "$here/pom.xml" $(find "$here/src" -type f | sort) | sha256sum | cut -c1-16; }

build() {
	local s
	s=$(stamp)
	if [ -f "$here/target/built-$s" ] && [ -s "$here/target/classpath.txt" ]; then
		return
	fi
	echo "minirm: building (mvn compile dependency:build-classpath)" >&2
	rm -f "$here"/target/built-*
	(cd "$here" && mvn -B -q compile dependency:build-classpath >&2)
	touch "$here/target/built-$s"
}

classpath() { echo "$dir/conf:$(cat "$here/target/classpath.txt")"; }

running() { [ -f "$dir/pid" ] && kill -0 "$(cat "$dir/pid")" 2>/dev/null; }

# env_lines prints export lines for eval.
env_lines() {
	printf 'export SCHEDKIT_YARN_RM=%q\n' "http://127.0.0.1:$port"
	printf 'export SCHEDKIT_YARN_CLASSPATH=%q\n' "$(classpath)"
	printf 'export SCHEDKIT_YARN_JAVA_OPTS=%q\n' "$java_opts"
	printf 'export SCHEDKIT_YARN_JAVA=%q\n' "$(readlink -f "$(command -v java)")"
}

start() {
	build
	if running && grep -q '^minirm: ready' "$dir/minirm.log"; then
		env_lines
		return
	fi
	mkdir -p "$dir/conf" "$dir/work"
	rm -f "$dir/conf/yarn-site.xml" "$dir/minirm.log"
	cp "$here/src/main/resources/log4j.properties" "$dir/conf/"
	echo "minirm: starting $nodes NodeManagers of $node_mb MB, REST API on 127.0.0.1:$port (log $dir/minirm.log)" >&2
	# shellcheck disable=SC2086 # one option per word
	(cd "$dir/work" && exec setsid java -Xmx"$heap" $java_opts \
		-cp "$here/target/classes:$(cat "$here/target/classpath.txt")" schedkit.minirm.MiniRM \
		-port "$port" -nodes "$nodes" -node-mb "$node_mb" -node-vcores "$node_vcores" \
		-conf-dir "$dir/conf" $opts >"$dir/minirm.log" 2>&1) &
	echo $! >"$dir/pid"
	for _ in $(seq 1 360); do
		if grep -q '^minirm: ready' "$dir/minirm.log"; then
			env_lines
			return
		fi
		if ! running; then
			echo "minirm: the cluster exited while starting; the end of its log:" >&2
			tail -n 40 "$dir/minirm.log" >&2
			return 1
		fi
		sleep 0.5
	done
	echo "minirm: not ready after 180 s; the end of its log:" >&2
	tail -n 40 "$dir/minirm.log" >&2
	stop
	return 1
}

# containers lists the processes the NodeManagers launched: those whose
# working directory is under the cluster's directories.
containers() {
	local p cwd
	for p in /proc/[0-9]*; do
		cwd=$(readlink "$p/cwd" 2>/dev/null) || continue
		case $cwd in "$dir/work/"*) echo "${p#/proc/}" ;; esac
	done
}

stop() {
	if running; then
		local pid
		pid=$(cat "$dir/pid")
		kill -TERM "$pid"
		for _ in $(seq 1 60); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.5
		done
		kill -KILL "$pid" 2>/dev/null || true
	fi
	rm -f "$dir/pid"
	local left
	left=$(containers)
	if [ -n "$left" ]; then
		# shellcheck disable=SC2086 # one pid per word
		kill -KILL $left 2>/dev/null || true
	fi
}

case "${1:-}" in
build) build ;;
start) start ;;
stop) stop ;;
env)
	running || { echo "minirm: not running" >&2; exit 1; }
	env_lines
	;;
*)
	echo "usage: bash minirm.sh build|start|env|stop" >&2
	exit 2
	;;
esac
