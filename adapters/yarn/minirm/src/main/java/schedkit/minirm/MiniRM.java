package schedkit.minirm;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.MiniYARNCluster;

/**
 * MiniRM runs Hadoop's MiniYARNCluster — one ResourceManager with its REST
 * API and N NodeManagers that launch real containers — until the process
 * is sent SIGTERM.
 *
 * <p>Flags (all optional): -port P (REST API, default 18088; the RM's RPC
 * services take P+1 … P+4), -nodes N (default 2), -node-mb M (memory of
 * each NodeManager, default 2048), -node-vcores V (default 8), -max-priority
 * X (yarn.cluster.max-application-priority, default 10), -conf-dir D (where
 * yarn-site.xml for containers is written, default ./conf), and any number
 * of -D key=value for other settings.
 *
 * <p>The scheduler is the CapacityScheduler with three queues under root:
 * "default" (50%, up to 100%), "dedicated" (50%, up to 100%, reservable,
 * with the ReservationSystem on — the plan queue of the RM's own
 * reservation REST tests) and "held" (0%, at most 0%: its apps stay
 * ACCEPTED, the first activated and waiting for a container that never
 * comes, the others pending, until moved to another queue — for tests
 * that need an app that waits). An app moved out of "held" starts in its
 * new queue. (A queue with max-parallel-apps 0 would not do: the
 * CapacityScheduler marks its apps not runnable and a move keeps them so,
 * CapacityScheduler.moveApplication and AbstractLeafQueue
 * .addApplicationAttempt, so they never start anywhere.)
 */
public final class MiniRM {
  private MiniRM() {}

  public static void main(String[] args) {
    try {
      run(args);
    } catch (Throwable t) {
      // The cluster's threads would keep a failed start alive.
      t.printStackTrace();
      System.exit(1);
    }
  }

  private static void run(String[] args) throws Exception {
    Map<String, String> flags = new LinkedHashMap<>();
    Map<String, String> extra = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i += 2) {
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException("flag " + args[i] + " has no value");
      }
      if (args[i].equals("-D")) {
        String[] kv = args[i + 1].split("=", 2);
        if (kv.length != 2) {
          throw new IllegalArgumentException("-D " + args[i + 1] + ": want key=value");
        }
        extra.put(kv[0], kv[1]);
      } else {
        flags.put(args[i], args[i + 1]);
      }
    }
    int port = Integer.parseInt(flags.getOrDefault("-port", "18088"));
    int nodes = Integer.parseInt(flags.getOrDefault("-nodes", "2"));
    int nodeMB = Integer.parseInt(flags.getOrDefault("-node-mb", "2048"));
    int nodeVCores = Integer.parseInt(flags.getOrDefault("-node-vcores", "8"));
    int maxPriority = Integer.parseInt(flags.getOrDefault("-max-priority", "10"));
    Path confDir = Path.of(flags.getOrDefault("-conf-dir", "conf")).toAbsolutePath();

    YarnConfiguration conf = new YarnConfiguration();
    // MiniYARNCluster sets every RM address to port 0 unless fixed ports
    // are asked for.
    conf.setBoolean(YarnConfiguration.YARN_MINICLUSTER_FIXED_PORTS, true);
    conf.set(YarnConfiguration.RM_WEBAPP_ADDRESS, "127.0.0.1:" + port);
    conf.set(YarnConfiguration.RM_ADDRESS, "127.0.0.1:" + (port + 1));
    conf.set(YarnConfiguration.RM_SCHEDULER_ADDRESS, "127.0.0.1:" + (port + 2));
    conf.set(YarnConfiguration.RM_RESOURCE_TRACKER_ADDRESS, "127.0.0.1:" + (port + 3));
    conf.set(YarnConfiguration.RM_ADMIN_ADDRESS, "127.0.0.1:" + (port + 4));
    // Priorities above this are silently lowered to it; YARN's default is 0.
    conf.setInt(YarnConfiguration.MAX_CLUSTER_LEVEL_APPLICATION_PRIORITY, maxPriority);
    // MiniYARNCluster gives each NodeManager this key's memory, not
    // yarn.nodemanager.resource.memory-mb's.
    conf.setInt(YarnConfiguration.YARN_MINICLUSTER_NM_PMEM_MB, nodeMB);
    conf.setInt(YarnConfiguration.NM_VCORES, nodeVCores);
    conf.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 128);
    conf.setInt(YarnConfiguration.RM_SCHEDULER_MAXIMUM_ALLOCATION_MB, nodeMB);
    // A disk more than 90% full would mark every NodeManager unhealthy.
    conf.setFloat(YarnConfiguration.NM_MAX_PER_DISK_UTILIZATION_PERCENTAGE, 99.9f);

    String cs = "yarn.scheduler.capacity.";
    conf.set(YarnConfiguration.RM_SCHEDULER,
        "org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler");
    conf.set(cs + "root.queues", "default,dedicated,held");
    conf.set(cs + "root.default.capacity", "50");
    conf.set(cs + "root.dedicated.capacity", "50");
    conf.set(cs + "root.held.capacity", "0");
    for (String q : new String[] {"default", "dedicated"}) {
      conf.set(cs + "root." + q + ".maximum-capacity", "100");
    }
    // "held" can run nothing; a queue of capacity 0 takes no apps
    // unless it is given a maximum of its own.
    conf.set(cs + "root.held.maximum-capacity", "0");
    conf.setInt(cs + "root.held.maximum-applications", 1000);
    conf.setBoolean(cs + "root.dedicated.reservable", true);
    // ApplicationMasters may take half of a queue (the default, 10%, lets
    // one small test cluster run one or two apps at a time).
    conf.setFloat(cs + "maximum-am-resource-percent", 0.5f);
    conf.setBoolean(YarnConfiguration.RM_RESERVATION_SYSTEM_ENABLE, true);

    extra.forEach(conf::set);

    MiniYARNCluster cluster = new MiniYARNCluster("schedkit-minirm", 1, nodes, 1, 1);
    cluster.init(conf);
    cluster.start();
    Runtime.getRuntime().addShutdownHook(new Thread(cluster::stop, "minirm-stop"));
    if (!cluster.waitForNodeManagersToConnect(120_000)) {
      System.err.println("minirm: the NodeManagers did not register within 120 s");
      System.exit(1);
    }
    // Containers are separate processes: their class path holds this
    // directory, and its yarn-site.xml names the RM's addresses.
    Files.createDirectories(confDir);
    Path site = confDir.resolve("yarn-site.xml");
    Path tmp = confDir.resolve("yarn-site.xml.tmp");
    try (OutputStream out = Files.newOutputStream(tmp)) {
      cluster.getConfig().writeXml(out);
    }
    Files.move(tmp, site, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
        java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    System.out.println("minirm: ready http://127.0.0.1:" + port + " nodes=" + nodes
        + " node-mb=" + nodeMB + " node-vcores=" + nodeVCores + " conf=" + site);
    System.out.flush();
    Thread.currentThread().join();
  }
}
