package dev.caplab.broker;

import dev.caplab.schema.kafka.KafkaClientSecurity;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;

/** Creates ACLs on any Kafka cluster with an authorizer; safe to run on every start. */
public final class AclProvisioner {

    private static final Duration VISIBLE_WITHIN = Duration.ofSeconds(30);

    private AclProvisioner() {
    }

    /**
     * Creates the {@code wanted} ACLs that are missing; with {@code exactly} every other ACL of the cluster is deleted
     * first (the embedded broker at start, whose ACLs are caplab's alone and no client is connected yet; never a
     * shared cluster). Returns once the broker answering {@code bootstrapServers} enforces them, so a role started
     * next is not refused.
     *
     * @return the ACLs created
     */
    public static List<AclBinding> ensure(String bootstrapServers, KafkaClientSecurity admin,
            Collection<AclBinding> wanted, boolean exactly) {
        Set<AclBinding> want = new LinkedHashSet<>(wanted);
        Map<String, Object> config = new HashMap<>(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers));
        try (Admin client = Admin.create(admin.applyTo(config))) {
            // A broker just restarted may not have replayed its ACLs yet when asked, but its controller deletes and
            // creates against the whole metadata log; so "exactly" deletes everything rather than what it was shown.
            List<AclBinding> missing;
            if (exactly) {
                client.deleteAcls(List.of(AclBindingFilter.ANY)).all().get();
                missing = List.copyOf(want);
            } else {
                Collection<AclBinding> existing = client.describeAcls(AclBindingFilter.ANY).values().get();
                missing = want.stream().filter(a -> !existing.contains(a)).toList();
            }
            if (!missing.isEmpty()) {
                client.createAcls(missing).all().get();
            }
            awaitEnforced(client, want, exactly, bootstrapServers);
            return missing;
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot create caplab's ACLs on " + bootstrapServers + " as " + admin,
                    e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating caplab's ACLs on " + bootstrapServers, e);
        }
    }

    /** The controller has them once createAcls returns; the broker's authorizer a moment later. */
    private static void awaitEnforced(Admin client, Set<AclBinding> want, boolean exactly, String bootstrapServers)
            throws ExecutionException, InterruptedException {
        long deadline = System.nanoTime() + VISIBLE_WITHIN.toNanos();
        while (!enforced(client.describeAcls(AclBindingFilter.ANY).values().get(), want, exactly)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the ACLs created on " + bootstrapServers + " were not enforced within "
                        + VISIBLE_WITHIN);
            }
            Thread.sleep(20);
        }
    }

    private static boolean enforced(Collection<AclBinding> seen, Set<AclBinding> want, boolean exactly) {
        return exactly ? Set.copyOf(seen).equals(want) : seen.containsAll(want);
    }
}
