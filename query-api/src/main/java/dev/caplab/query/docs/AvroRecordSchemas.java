package dev.caplab.query.docs;

import dev.caplab.query.web.CsvMessageConverter;
import io.swagger.v3.core.converter.AnnotatedType;
import io.swagger.v3.core.converter.ModelConverter;
import io.swagger.v3.core.converter.ModelConverterContext;
import io.swagger.v3.core.util.Json;
import io.swagger.v3.oas.models.media.Schema;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.avro.specific.SpecificRecordBase;
import org.springframework.stereotype.Component;

/**
 * The OpenAPI schema of an Avro record (the schema module's generated classes) has the properties the API writes
 * for it, under the same names and in the same order ({@link CsvMessageConverter#columnsOf}): the OpenAPI generator
 * reads the record's getters with Jackson's plain bean rules, which add {@code schema} and {@code specificData},
 * name {@code getRSquared()} {@code rsquared}, and know nothing of a mix-in hiding a field. A view that unwraps a
 * record ({@code @JsonUnwrapped}) takes these properties too.
 */
@Component
class AvroRecordSchemas implements ModelConverter {

    @Override
    @SuppressWarnings("rawtypes")
    public Schema resolve(AnnotatedType type, ModelConverterContext context, Iterator<ModelConverter> chain) {
        if (!chain.hasNext()) {
            return null;
        }
        Schema resolved = chain.next().resolve(type, context, chain);
        Class<?> raw = Json.mapper().constructType(type.getType()).getRawClass();
        if (resolved == null || !SpecificRecordBase.class.isAssignableFrom(raw)) {
            return resolved;
        }
        Schema model = resolved.get$ref() == null ? resolved
                : context.getDefinedModels().get(resolved.get$ref().substring(resolved.get$ref().lastIndexOf('/') + 1));
        if (model != null && model.getProperties() != null) {
            model.setProperties(served(raw, model.getProperties()));
        }
        return resolved;
    }

    /** The properties the API writes for {@code record}, each with the schema the generator made for its getter. */
    @SuppressWarnings("rawtypes")
    private static Map<String, Schema> served(Class<?> record, Map<String, Schema> generated) {
        Map<String, Schema> byLowerCase = new LinkedHashMap<>();
        generated.forEach((name, schema) -> byLowerCase.put(name.toLowerCase(Locale.ROOT), schema));
        Map<String, Schema> served = new LinkedHashMap<>();
        for (String name : CsvMessageConverter.columnsOf(record)) {
            Schema schema = byLowerCase.get(name.toLowerCase(Locale.ROOT));
            if (schema == null) {
                throw new IllegalStateException("the OpenAPI generator made no property for " + record.getName()
                        + "." + name + ", which the API writes");
            }
            // a view that unwraps the record copies its properties by their schemas' names
            served.put(name, schema.name(name));
        }
        return served;
    }
}
