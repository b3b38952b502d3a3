package dev.caplab.schema.kafka;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.apache.kafka.common.security.plain.PlainLoginModule;

/**
 * How every Kafka client caplab creates logs in: not at all ({@link #NONE}, PLAINTEXT) or with SASL/PLAIN as
 * {@code user}/{@code password}, over SASL_PLAINTEXT, or over SASL_SSL when {@code trustedCertificate} names the PEM
 * file of the certificate (or CA) the broker must present (e.g. {@code caplab up}'s self-signed one beyond loopback).
 * The one place that turns credentials into client config ({@link #applyTo}); the password never appears in
 * {@link #toString()}.
 */
public record KafkaClientSecurity(String user, String password, Path trustedCertificate) {

    /** Environment variable the role commands read the SASL/PLAIN user from. */
    public static final String ENV_USER = "CAPLAB_KAFKA_USER";
    /** Environment variable the role commands read the SASL/PLAIN password from. */
    public static final String ENV_PASSWORD = "CAPLAB_KAFKA_PASSWORD";
    /** Environment variable the role commands read the broker's certificate (PEM) from: SASL_SSL when set. */
    public static final String ENV_CA_FILE = "CAPLAB_KAFKA_CA_FILE";
    /** The only mechanism caplab speaks; the broker enables exactly this one. */
    public static final String MECHANISM = "PLAIN";
    /** No authentication: the client speaks PLAINTEXT. */
    public static final KafkaClientSecurity NONE = new KafkaClientSecurity("", "");

    /** JAAS option names are parsed as words, so user names stay within these characters (they become user_NAME). */
    private static final Pattern USER_NAME = Pattern.compile("[A-Za-z0-9_]+");

    public KafkaClientSecurity {
        user = user == null ? "" : user;
        password = password == null ? "" : password;
        if (user.isEmpty() != password.isEmpty()) {
            throw new IllegalArgumentException("Kafka SASL/PLAIN needs both a user and a password (" + ENV_USER + ", "
                    + ENV_PASSWORD + "); got " + (user.isEmpty() ? "a password without a user" : "user '" + user
                    + "' without a password"));
        }
        if (!user.isEmpty() && !USER_NAME.matcher(user).matches()) {
            throw new IllegalArgumentException("Kafka user '" + user + "' may only contain letters, digits and _");
        }
        if (password.indexOf('\n') >= 0 || password.indexOf('\r') >= 0) {
            throw new IllegalArgumentException("Kafka password of user '" + user + "' must not contain a line break");
        }
        if (trustedCertificate != null && user.isEmpty()) {
            throw new IllegalArgumentException("a Kafka certificate to trust (" + ENV_CA_FILE + ") was given without a "
                    + "SASL/PLAIN user: caplab speaks TLS only with SASL (SASL_SSL)");
        }
    }

    /** SASL/PLAIN over SASL_PLAINTEXT, or no authentication when both are empty. */
    public KafkaClientSecurity(String user, String password) {
        this(user, password, null);
    }

    /** The same login over SASL_SSL, trusting the broker certificate (or CA) in this PEM file. */
    public KafkaClientSecurity trusting(Path certificatePem) {
        return new KafkaClientSecurity(user, password, Objects.requireNonNull(certificatePem, "certificatePem"));
    }

    /** Whether the connection is encrypted (SASL_SSL). */
    public boolean encrypted() {
        return trustedCertificate != null;
    }

    /** SASL/PLAIN as this user. */
    public static KafkaClientSecurity plain(String user, String password) {
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
        if (user.isEmpty()) {
            throw new IllegalArgumentException("Kafka SASL/PLAIN user must not be empty");
        }
        return new KafkaClientSecurity(user, password);
    }

    /** Whether the client authenticates (SASL_PLAINTEXT) rather than connecting anonymously (PLAINTEXT). */
    public boolean authenticates() {
        return !user.isEmpty();
    }

    /**
     * Adds {@code security.protocol}, {@code sasl.mechanism} and {@code sasl.jaas.config} to a producer, consumer,
     * admin or streams config; leaves it untouched for {@link #NONE}. Works on {@code Properties} and maps alike.
     */
    public <M extends Map<? super String, ? super String>> M applyTo(M config) {
        if (authenticates()) {
            config.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG,
                    (encrypted() ? SecurityProtocol.SASL_SSL : SecurityProtocol.SASL_PLAINTEXT).name);
            config.put(SaslConfigs.SASL_MECHANISM, MECHANISM);
            config.put(SaslConfigs.SASL_JAAS_CONFIG, plainJaasConfig(loginOptions()));
        }
        if (encrypted()) {
            // hostname verification stays on (Kafka's default "https"): the certificate must name the broker's address
            config.put(SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PEM");
            config.put(SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, trustedCertificate.toString());
        }
        return config;
    }

    /** The options a PLAIN login module logs in with: {@code username} and {@code password}. */
    public Map<String, String> loginOptions() {
        Map<String, String> options = new LinkedHashMap<>();
        options.put("username", user);
        options.put("password", password);
        return options;
    }

    /**
     * A {@code sasl.jaas.config} value for Kafka's {@link PlainLoginModule} with these options, each value in double
     * quotes; Kafka's JAAS parser (a {@link java.io.StreamTokenizer}) reads backslash escapes inside quotes, so a
     * backslash or quote in a token survives as itself. Clients pass their login; a broker adds {@code user_NAME}.
     */
    public static String plainJaasConfig(Map<String, String> options) {
        StringBuilder jaas = new StringBuilder(PlainLoginModule.class.getName()).append(" required");
        options.forEach((name, value) -> jaas.append(' ').append(name).append("=\"")
                .append(value.replace("\\", "\\\\").replace("\"", "\\\"")).append('"'));
        return jaas.append(';').toString();
    }

    @Override
    public String toString() {
        return authenticates() ? "SASL/PLAIN as " + user + " (password hidden)"
                + (encrypted() ? " over TLS trusting " + trustedCertificate : "") : "PLAINTEXT (no authentication)";
    }
}
