package dev.caplab.ingest.otlp;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import dev.caplab.ingest.census.CensusLimits;
import dev.caplab.ingest.census.JsonCensus;
import dev.caplab.ingest.census.ProtobufCensus;
import dev.caplab.ingest.census.TooManyValuesException;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsPartialSuccess;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * The two OTLP/HTTP encodings (OTLP specification, "OTLP/HTTP"): binary protobuf ({@code application/x-protobuf})
 * and the proto3 JSON mapping ({@code application/json}). A response is written in its request's encoding: an
 * {@code ExportMetricsServiceResponse} on success, a {@code google.rpc.Status} on failure. JSON is read by
 * protobuf-java-util's {@link JsonFormat}, which takes what OTLP's JSON deviations need: lowerCamelCase (and
 * original) keys, enums as integers, 64-bit integers as strings or numbers, unknown fields ignored (the spec asks
 * receivers to ignore them). Trace and span ids, which OTLP writes in hex rather than base64, only occur in
 * exemplars, which caplab does not store; hex digits are valid base64, so they parse without error and are dropped.
 */
public enum OtlpEncoding {
    PROTOBUF("application/x-protobuf"), JSON("application/json");

    private static final JsonFormat.Parser JSON_PARSER = JsonFormat.parser().ignoringUnknownFields();
    private static final JsonFormat.Printer JSON_PRINTER = JsonFormat.printer().omittingInsignificantWhitespace();
    private static final JsonMapper STATUS_JSON = JsonMapper.builder().build();

    private final String mediaType;

    OtlpEncoding(String mediaType) {
        this.mediaType = mediaType;
    }

    public String mediaType() {
        return mediaType;
    }

    /** The encoding a {@code Content-Type} names (parameters such as charset ignored). */
    public static OtlpEncoding of(String contentType) {
        String type = contentType == null ? "" : contentType.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
        return switch (type) {
            case "application/x-protobuf" -> PROTOBUF;
            case "application/json" -> JSON;
            default -> throw new UnsupportedContentTypeException(contentType);
        };
    }

    /**
     * Reads and parses a request body, counting its values first ({@link CensusLimits}): a protobuf body on the wire
     * before it is parsed, a JSON body while it is read, so a body over a limit is refused
     * ({@link TooManyValuesException}) before any of it is decoded into objects.
     */
    public ExportMetricsServiceRequest read(InputStream body, CensusLimits limits) throws IOException {
        if (this == PROTOBUF) {
            byte[] bytes = body.readAllBytes();
            new ProtobufCensus(limits).count(bytes, ExportMetricsServiceRequest.getDescriptor());
            return parse(bytes);
        }
        byte[] json;
        try {
            json = new JsonCensus(limits).read(body);
        } catch (JacksonException e) {
            throw new MalformedRequestException("not an OTLP ExportMetricsServiceRequest in " + mediaType + ": "
                    + e.getOriginalMessage(), e);
        }
        return parse(json);
    }

    /** Parses a body already counted (or known to be small). */
    public ExportMetricsServiceRequest parse(byte[] body) {
        try {
            if (this == PROTOBUF) {
                return ExportMetricsServiceRequest.parseFrom(body);
            }
            ExportMetricsServiceRequest.Builder builder = ExportMetricsServiceRequest.newBuilder();
            JSON_PARSER.merge(new String(body, StandardCharsets.UTF_8), builder);
            return builder.build();
        } catch (InvalidProtocolBufferException e) {
            throw new MalformedRequestException("not an OTLP ExportMetricsServiceRequest in " + mediaType + ": "
                    + e.getMessage(), e);
        }
    }

    /** The success answer; {@code partial_success} set when points were rejected. */
    public byte[] response(long rejectedDataPoints, String errorMessage) {
        ExportMetricsServiceResponse.Builder response = ExportMetricsServiceResponse.newBuilder();
        if (rejectedDataPoints > 0) {
            response.setPartialSuccess(ExportMetricsPartialSuccess.newBuilder()
                    .setRejectedDataPoints(rejectedDataPoints).setErrorMessage(errorMessage));
        }
        if (this == PROTOBUF) {
            return response.build().toByteArray();
        }
        try {
            return JSON_PRINTER.print(response).getBytes(StandardCharsets.UTF_8);
        } catch (InvalidProtocolBufferException e) {
            throw new IllegalStateException("a response of known fields always prints", e);
        }
    }

    /**
     * A {@code google.rpc.Status} (code = a gRPC status code, message) as the OTLP spec requires for 4xx and 5xx
     * answers. Written by hand, two fields, rather than depending on the common-protos artifact for one message.
     */
    public byte[] status(int grpcCode, String message) {
        if (this == JSON) {
            Map<String, Object> status = new LinkedHashMap<>();
            status.put("code", grpcCode);
            status.put("message", message);
            return STATUS_JSON.writeValueAsBytes(status);
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CodedOutputStream out = CodedOutputStream.newInstance(bytes);
        try {
            out.writeInt32(1, grpcCode);
            out.writeString(2, message);
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** gRPC status codes used in {@link #status}. */
    public static final class GrpcCode {
        public static final int INVALID_ARGUMENT = 3;
        public static final int RESOURCE_EXHAUSTED = 8;
        public static final int UNAVAILABLE = 14;

        private GrpcCode() {
        }
    }

    /** A Content-Type other than the two OTLP encodings: 415. */
    public static final class UnsupportedContentTypeException extends RuntimeException {
        UnsupportedContentTypeException(String contentType) {
            super("Content-Type '" + contentType + "' is not an OTLP/HTTP encoding: send application/x-protobuf or "
                    + "application/json");
        }
    }

    /** A body that is not an ExportMetricsServiceRequest in the declared encoding: 400. */
    public static final class MalformedRequestException extends RuntimeException {
        MalformedRequestException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
