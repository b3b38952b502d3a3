package dev.caplab.query.docs;

import com.fasterxml.jackson.annotation.JsonIgnore;
import dev.caplab.query.web.ApiJson;
import io.swagger.v3.core.util.Json;
import io.swagger.v3.core.util.Json31;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecordBase;

/**
 * The OpenAPI models of the Avro records the API serves. Swagger reads a served type with its own Jackson 2 mapper,
 * not the API's ({@link ApiJson}): it gets the API's Avro mix-ins here, and Avro's own getters ({@code getSchema},
 * {@code getSpecificData}) hidden, so a record's model has the properties its JSON has.
 */
final class AvroModels {

    private AvroModels() {
    }

    /** Registers the mix-ins on swagger's mappers (OpenAPI 3.0 and 3.1), before the document is first built. */
    static void register() {
        for (var mapper : List.of(Json.mapper(), Json31.mapper())) {
            mapper.addMixIn(SpecificRecordBase.class, AvroOwnGetters.class);
            ApiJson.avroMixIns().forEach(mapper::addMixIn);
        }
    }

    /** What every generated record has of Avro's own rather than of its schema's fields. */
    abstract static class AvroOwnGetters {

        @JsonIgnore
        abstract Schema getSchema();

        @JsonIgnore
        abstract SpecificData getSpecificData();
    }
}
