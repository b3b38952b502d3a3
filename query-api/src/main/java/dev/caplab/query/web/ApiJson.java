package dev.caplab.query.web;

import dev.caplab.query.fits.FitView;
import dev.caplab.query.runs.ConclusionMixIn;
import dev.caplab.schema.event.CapacityFit;
import dev.caplab.schema.event.RunConclusion;
import dev.caplab.schema.event.Segment;
import dev.caplab.query.runs.RunLatenessMixIn;
import dev.caplab.query.steps.StepAggregateMixIn;
import dev.caplab.schema.event.RunLateness;
import dev.caplab.schema.event.StepAggregate;
import java.util.Map;
import org.apache.avro.specific.SpecificRecordBase;
import tools.jackson.databind.JacksonModule;
import tools.jackson.databind.json.JsonMapper;

/**
 * The API's one JSON configuration beyond Jackson's defaults: Spring MVC's mapper registers {@link #module()} (a
 * bean, {@link ApiWebConfiguration}) and the CSV converter writes with {@link #mapper()}, so a table's CSV columns
 * are the properties its JSON has.
 */
public final class ApiJson {

    /**
     * Where the API serves an Avro record's field under another name than its schema's ({@code @JsonProperty} on the
     * getter) or not at all ({@code @JsonIgnore}): record class to mix-in class.
     */
    private static final Map<Class<? extends SpecificRecordBase>, Class<?>> AVRO_MIX_INS = Map.of(
            CapacityFit.class, FitView.CapacityFitMixIn.class,
            Segment.class, FitView.SegmentMixIn.class,
            StepAggregate.class, StepAggregateMixIn.class,
            RunLateness.class, RunLatenessMixIn.class,
            RunConclusion.class, ConclusionMixIn.class);

    private static final JsonMapper MAPPER = JsonMapper.builder().addModule(module()).build();

    private ApiJson() {
    }

    /** What the API adds to Jackson: Avro records under their schema's names, with the mix-ins above. */
    public static JacksonModule module() {
        return new AvroRecordsModule(AVRO_MIX_INS);
    }

    /** The Avro mix-ins above, for readers of served types with a mapper of their own (the OpenAPI models). */
    public static Map<Class<? extends SpecificRecordBase>, Class<?>> avroMixIns() {
        return AVRO_MIX_INS;
    }

    /** A mapper with {@link #module()}, for writers outside Spring MVC's message converters. */
    public static JsonMapper mapper() {
        return MAPPER;
    }
}
