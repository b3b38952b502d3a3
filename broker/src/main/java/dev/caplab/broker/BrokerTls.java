package dev.caplab.broker;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded broker's TLS identity: a self-signed certificate for the address it listens on, made with the JDK's
 * {@code keytool} at the first start that needs it and kept under the data directory, so remote clients trust it once
 * ({@link #certificate()}, a PEM file to pass as {@code ssl.truststore.location} with {@code ssl.truststore.type=PEM}).
 * A new one is made when the address is not among its subject alternative names (the broker moved).
 *
 * @param keyStore PKCS12 key store holding the key and certificate (owner-only)
 * @param keyStorePassword its password, drawn at creation and kept beside it (owner-only)
 * @param certificate the certificate alone, PEM: what clients trust
 */
public record BrokerTls(Path keyStore, String keyStorePassword, Path certificate) {

    private static final Logger log = LoggerFactory.getLogger(BrokerTls.class);
    private static final String ALIAS = "caplab-kafka";
    private static final int VALIDITY_DAYS = 3650;
    private static final int KEYTOOL_TIMEOUT_S = 60;
    private static final String PASSWORD_ENV = "CAPLAB_KAFKA_KEYSTORE_PASSWORD";

    public BrokerTls {
        Objects.requireNonNull(keyStore, "keyStore");
        Objects.requireNonNull(keyStorePassword, "keyStorePassword");
        Objects.requireNonNull(certificate, "certificate");
    }

    /** The PEM certificate clients trust, once {@link #ensure} has made it in {@code dir}. */
    public static Path certificateIn(Path dir) {
        return dir.resolve("broker-cert.pem");
    }

    /** The certificate and key in {@code dir} for {@code host}, made there first when missing or for another host. */
    public static BrokerTls ensure(Path dir, String host) {
        BrokerTls tls = new BrokerTls(dir.resolve("broker.p12"), "", certificateIn(dir));
        Path passwordFile = dir.resolve("broker.p12.password");
        try {
            if (Files.exists(tls.keyStore()) && Files.exists(passwordFile) && Files.exists(tls.certificate())) {
                if (names(tls.certificate(), host)) {
                    return new BrokerTls(tls.keyStore(), Files.readString(passwordFile).strip(), tls.certificate());
                }
                log.warn("Kafka TLS certificate {} is not for {}: making a new one; remote clients must trust the new "
                        + "file", tls.certificate(), host);
            }
            return create(dir, host, tls, passwordFile);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot set up the Kafka TLS certificate in " + dir, e);
        }
    }

    /** The listener's key store and, for the broker's connections to itself, the trust store (its own certificate). */
    Properties listenerProperties(String listenerPrefix) {
        Properties p = new Properties();
        p.put(listenerPrefix + "ssl.keystore.type", "PKCS12");
        p.put(listenerPrefix + "ssl.keystore.location", keyStore.toString());
        p.put(listenerPrefix + "ssl.keystore.password", keyStorePassword);
        p.put(listenerPrefix + "ssl.key.password", keyStorePassword);
        p.put(listenerPrefix + "ssl.truststore.type", "PEM");
        p.put(listenerPrefix + "ssl.truststore.location", certificate.toString());
        return p;
    }

    @Override
    public String toString() {
        return "BrokerTls[certificate=" + certificate + " (key store password hidden)]";
    }

    private static BrokerTls create(Path dir, String host, BrokerTls paths, Path passwordFile) throws IOException {
        Files.createDirectories(dir);
        Files.deleteIfExists(paths.keyStore());
        Files.deleteIfExists(paths.certificate());
        byte[] random = new byte[24];
        new SecureRandom().nextBytes(random);
        String password = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
        Files.deleteIfExists(passwordFile);
        Files.createFile(passwordFile, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(passwordFile, password + "\n", StandardCharsets.UTF_8);
        keytool(List.of("-genkeypair", "-alias", ALIAS, "-keyalg", "EC", "-groupname", "secp256r1",
                "-sigalg", "SHA256withECDSA", "-dname", "CN=caplab-kafka", "-ext", "SAN=" + subjectAltName(host),
                "-validity", String.valueOf(VALIDITY_DAYS), "-keystore", paths.keyStore().toString(),
                "-storetype", "PKCS12", "-storepass:env", PASSWORD_ENV, "-keypass:env", PASSWORD_ENV), password);
        Files.setPosixFilePermissions(paths.keyStore(), PosixFilePermissions.fromString("rw-------"));
        keytool(List.of("-exportcert", "-rfc", "-alias", ALIAS, "-keystore", paths.keyStore().toString(),
                "-storetype", "PKCS12", "-storepass:env", PASSWORD_ENV, "-file", paths.certificate().toString()),
                password);
        log.info("Kafka TLS: made a self-signed certificate for {} valid {} days; remote clients trust {}", host,
                VALIDITY_DAYS, paths.certificate());
        return new BrokerTls(paths.keyStore(), password, paths.certificate());
    }

    /** {@code ip:} for an address literal, {@code dns:} for a name; loopback names stay reachable as localhost too. */
    static String subjectAltName(String host) {
        String entry = isAddressLiteral(host) ? "ip:" + host : "dns:" + host;
        return host.equals("localhost") ? entry : entry + ",dns:localhost";
    }

    private static boolean isAddressLiteral(String host) {
        return host.contains(":") || host.matches("[0-9.]+");
    }

    /** Whether the certificate names {@code host} among its subject alternative names. */
    static boolean names(Path certificate, String host) throws IOException {
        try (InputStream in = Files.newInputStream(certificate)) {
            X509Certificate cert = (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
            Collection<List<?>> alt = cert.getSubjectAlternativeNames();
            if (alt == null) {
                return false;
            }
            for (List<?> name : alt) {
                Object value = name.get(1);
                if (host.equalsIgnoreCase(String.valueOf(value)) || sameAddress(String.valueOf(value), host)) {
                    return true;
                }
            }
            return false;
        } catch (CertificateParsingException e) {
            return false;
        } catch (CertificateException e) {
            throw new IOException("cannot read the certificate " + certificate, e);
        }
    }

    private static boolean sameAddress(String a, String b) {
        if (!isAddressLiteral(a) || !isAddressLiteral(b)) {
            return false;
        }
        try {
            return InetAddress.getByName(a).equals(InetAddress.getByName(b));
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Runs the JDK's own keytool (the one of this JVM), the password in its environment (never its command line,
     * which every local user sees), failing with its output when it fails.
     */
    private static void keytool(List<String> args, String password) throws IOException {
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        List<String> command = new java.util.ArrayList<>();
        command.add(keytool.toString());
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put(PASSWORD_ENV, password);
        Process process = builder.start();
        try {
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(KEYTOOL_TIMEOUT_S, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException("keytool " + args.getFirst() + " did not finish within " + KEYTOOL_TIMEOUT_S + " s");
            }
            if (process.exitValue() != 0) {
                throw new IOException("keytool " + args.getFirst() + " failed (exit " + process.exitValue() + "): "
                        + output.strip());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running keytool " + args.getFirst(), e);
        }
    }
}
