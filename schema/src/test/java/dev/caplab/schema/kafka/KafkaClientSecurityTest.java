package dev.caplab.schema.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import javax.security.auth.login.AppConfigurationEntry;
import org.apache.kafka.common.config.types.Password;
import org.apache.kafka.common.security.JaasContext;
import org.junit.jupiter.api.Test;

class KafkaClientSecurityTest {

    @Test
    void noneLeavesTheConfigAsItWas() {
        Map<String, Object> config = new HashMap<>(Map.of("bootstrap.servers", "127.0.0.1:9092"));
        KafkaClientSecurity.NONE.applyTo(config);
        assertThat(config).containsOnlyKeys("bootstrap.servers");
    }

    @Test
    void plainSetsProtocolMechanismAndAJaasConfigKafkaParsesBackToTheSamePassword() {
        String password = "a\"b\\c d=e;f\\n";
        Properties config = KafkaClientSecurity.plain("caplab", password).applyTo(new Properties());

        assertThat(config).containsEntry("security.protocol", "SASL_PLAINTEXT").containsEntry("sasl.mechanism", "PLAIN");
        // Kafka's own parser, as the client runs it.
        AppConfigurationEntry entry = JaasContext.loadClientContext(Map.of("sasl.jaas.config",
                new Password((String) config.get("sasl.jaas.config")))).configurationEntries().getFirst();
        assertThat(entry.getLoginModuleName()).isEqualTo("org.apache.kafka.common.security.plain.PlainLoginModule");
        assertThat(entry.getOptions().get("username")).isEqualTo("caplab");
        assertThat(entry.getOptions().get("password")).isEqualTo(password);
    }

    @Test
    void toStringNeverShowsThePassword() {
        assertThat(KafkaClientSecurity.plain("caplab", "0123456789abcdef-secret").toString())
                .contains("caplab").doesNotContain("0123456789abcdef-secret");
    }

    @Test
    void aUserWithoutPasswordOrThePasswordAloneIsRefused() {
        assertThatThrownBy(() -> new KafkaClientSecurity("caplab", "")).hasMessageContaining("without a password");
        assertThatThrownBy(() -> new KafkaClientSecurity("", "secret")).hasMessageContaining("password without a user");
        assertThatThrownBy(() -> new KafkaClientSecurity("cap lab", "secret")).hasMessageContaining("letters, digits");
        assertThat(new KafkaClientSecurity(null, null)).isEqualTo(KafkaClientSecurity.NONE);
    }

    @Test
    void trustingACertificateSwitchesToSaslSslWithAPemTrustStoreAndKeepsHostnameVerification() {
        Path pem = Path.of("/data/kafka-tls/broker-cert.pem");
        Properties config = KafkaClientSecurity.plain("caplab", "0123456789abcdef-secret").trusting(pem)
                .applyTo(new Properties());
        assertThat(config).containsEntry("security.protocol", "SASL_SSL").containsEntry("sasl.mechanism", "PLAIN")
                .containsEntry("ssl.truststore.type", "PEM").containsEntry("ssl.truststore.location", pem.toString())
                .doesNotContainKey("ssl.endpoint.identification.algorithm");
        assertThatThrownBy(() -> KafkaClientSecurity.NONE.trusting(pem)).hasMessageContaining("without a SASL/PLAIN user");
    }
}
