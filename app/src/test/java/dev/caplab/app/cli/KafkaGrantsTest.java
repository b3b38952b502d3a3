package dev.caplab.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class KafkaGrantsTest {

    @Test
    void noGrantNoAcl() {
        assertThat(parse().acls()).isEmpty();
    }

    @Test
    void eachNamedUserGetsItsRolesAclsAndOnlyThose() {
        List<AclBinding> acls = parse("--grant-tools", "tools", "--grant-streams", "streams").acls();
        assertThat(acls).extracting(a -> a.entry().principal()).containsOnly("User:tools", "User:streams");
        // the tools may write caplab.samples, never a derived topic; streams owns its and rebuild's prefixes
        assertThat(acls).anyMatch(a -> is(a, "User:tools", ResourceType.TOPIC, "caplab.samples", AclOperation.WRITE));
        assertThat(acls).noneMatch(a -> is(a, "User:tools", ResourceType.TOPIC, "caplab.conclusions",
                AclOperation.WRITE));
        assertThat(acls).filteredOn(a -> a.entry().principal().equals("User:streams")
                        && a.pattern().patternType() == PatternType.PREFIXED
                        && a.pattern().resourceType() == ResourceType.TRANSACTIONAL_ID)
                .extracting(a -> a.pattern().name()).containsExactlyInAnyOrder("caplab-streams", "caplab-rebuild-");
        assertThat(acls).doesNotHaveDuplicates();
    }

    @Test
    void serveMayWatchTheOtherRolesGroupsButNotJoinThem() {
        List<AclBinding> acls = parse("--grant-serve", "web").acls();
        assertThat(acls).anyMatch(a -> is(a, "User:web", ResourceType.GROUP, "caplab-sink", AclOperation.DESCRIBE));
        assertThat(acls).noneMatch(a -> a.pattern().resourceType() == ResourceType.GROUP
                && a.entry().operation() == AclOperation.READ);
    }

    private static boolean is(AclBinding a, String principal, ResourceType type, String name, AclOperation op) {
        return a.entry().principal().equals(principal) && a.pattern().resourceType() == type
                && a.pattern().name().equals(name) && a.entry().operation() == op;
    }

    private static KafkaGrants parse(String... args) {
        KafkaGrants grants = new KafkaGrants();
        new CommandLine(grants).parseArgs(args);
        return grants;
    }
}
