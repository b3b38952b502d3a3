package dev.caplab.broker;

import dev.caplab.schema.kafka.KafkaClientSecurity;
import java.util.List;
import java.util.Objects;
import org.apache.kafka.common.acl.AclBinding;

/**
 * A SASL/PLAIN user of the embedded broker and everything it may do: its login and its ACLs, each naming
 * {@code User:<its name>} as principal (see {@link CaplabAcls}).
 */
public record KafkaUser(KafkaClientSecurity login, List<AclBinding> acls) {

    public KafkaUser {
        Objects.requireNonNull(login, "login");
        if (!login.authenticates()) {
            throw new IllegalArgumentException("a Kafka user needs a name and a password");
        }
        acls = List.copyOf(acls);
        String principal = CaplabAcls.principal(login.user());
        for (AclBinding acl : acls) {
            if (!acl.entry().principal().equals(principal)) {
                throw new IllegalArgumentException("ACL " + acl + " of Kafka user '" + login.user()
                        + "' names another principal");
            }
        }
    }

    /** Its name, which is also its principal's name. */
    public String name() {
        return login.user();
    }
}
