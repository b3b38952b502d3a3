package dev.caplab.query.docs;

import dev.caplab.analysis.conclusion.RunWarningKind;
import dev.caplab.schema.event.BottleneckRule;
import dev.caplab.schema.event.RunOrigin;
import dev.caplab.schema.event.RunStatus;
import dev.caplab.schema.event.SampleKind;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.media.Schema;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The OpenAPI document as documentation: its title and version, and for the fields of the views people read first
 * (run, step, step aggregate, fit, conclusion, lateness) what each means with its unit, and the values of each enumerated field,
 * taken from the enums that produce them. One table here rather than an annotation on every record component.
 */
@Configuration(proxyBeanMethods = false)
public class ApiDocumentation {

    /** The API's version: the {@code /api/v1} paths' contract. */
    public static final String VERSION = "1.0";

    /** Schema name, then property name, then its description (with the unit, when it has one). */
    static final Map<String, Map<String, String>> FIELDS = Map.of(
            "RunSummary", FieldTable.RUN,
            "StepView", FieldTable.STEP,
            "StepAggregateRow", FieldTable.AGGREGATE,
            "FitView", FieldTable.FIT,
            "ConclusionView", FieldTable.CONCLUSION,
            "RunBottleneck", FieldTable.BOTTLENECK,
            "ResourceEstimate", FieldTable.ESTIMATE,
            "RunWarning", Map.of("kind", "what the warning is about (one of the values listed)",
                    "message", "what a person should know and do, as a sentence"),
            "RunLateness", FieldTable.LATENESS);

    /** Schema name, then property name, then the values it takes. */
    static final Map<String, Map<String, List<String>>> ENUMS = Map.of(
            "RunSummary", Map.of("status", Stream.concat(Stream.of("RUNNING"),
                            Arrays.stream(RunStatus.values()).map(Enum::name)).toList(),
                    "origin", names(RunOrigin.values())),
            "StepAggregateRow", Map.of("kind", names(SampleKind.values())),
            "FitView", Map.of("role", List.of("sut", "host")),
            "RunBottleneck", Map.of("rule", names(BottleneckRule.values()), "role", List.of("sut", "host")),
            "ResourceEstimate", Map.of("role", List.of("sut", "host")),
            "ConclusionView", Map.of("rulesFrom", List.of("run", "default", "none")),
            "RunWarning", Map.of("kind", names(RunWarningKind.values())));

    private static List<String> names(Enum<?>[] values) {
        return Arrays.stream(values).map(Enum::name).toList();
    }

    @Bean
    OpenApiCustomizer caplabApiDocumentation() {
        AvroModels.register();
        return api -> describe(api);
    }

    /** Sets the title, version and the tables' descriptions and enums on {@code api}'s schemas. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    static void describe(OpenAPI api) {
        api.info(new Info().title("caplab API").version(VERSION).description("Load-test runs, their steps, verdicts, "
                + "fits and conclusions; comparisons, history, capacity plans, reports and read-only SQL. Loads are "
                + "in the run's load expression (x); CPU in cores; memory in bytes; network in Mbit/s where a field "
                + "says mbps, else bytes per second; times ISO-8601 UTC; durations in milliseconds."));
        if (api.getComponents() == null || api.getComponents().getSchemas() == null) {
            return;
        }
        Map<String, Schema> schemas = api.getComponents().getSchemas();
        FIELDS.forEach((schema, fields) -> fields.forEach((field, text) ->
                property(schemas, schema, field).ifPresent(p -> p.setDescription(text))));
        ENUMS.forEach((schema, fields) -> fields.forEach((field, values) ->
                property(schemas, schema, field).ifPresent(p -> p.setEnum(values))));
    }

    @SuppressWarnings("rawtypes")
    private static java.util.Optional<Schema> property(Map<String, Schema> schemas, String schemaName, String field) {
        Schema schema = schemas.get(schemaName);
        return schema == null || schema.getProperties() == null ? java.util.Optional.empty()
                : java.util.Optional.ofNullable((Schema) schema.getProperties().get(field));
    }
}
