package dev.caplab.schema.serde;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.schema.event.RunOrigin;
import dev.caplab.schema.event.RunStarted;
import org.junit.jupiter.api.Test;

/** Avro 1.12 fills an enum default by loading the enum class by name, which only trusted classes may be. */
class AvroTrustTest {

    @Test
    void aRunStartedBuiltWithoutItsOriginIsDeclared() {
        AvroTrust.install();
        RunStarted built = Events.runStarted();
        assertThat(built.getOrigin()).isEqualTo(RunOrigin.DECLARED);
    }

    @Test
    void caplabEventClassesAreTrustedAndOthersAreNotWidened() {
        AvroTrust.install();
        org.apache.avro.util.ClassSecurityValidator.validate(RunOrigin.class);
        assertThat(org.apache.avro.util.ClassSecurityValidator.getGlobal().isTrusted(java.lang.ProcessBuilder.class))
                .as("only caplab's event package is added").isFalse();
    }
}
